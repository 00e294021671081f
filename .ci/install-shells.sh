#!/bin/sh
# Installs the shells the completion tests drive end to end (bash is
# already there), plus tmux, groff and hyperfine for the terminal,
# man page and start-up checks. Debian/Ubuntu; run as root in CI.
# Tests skip a shell that is absent, so this is optional locally.
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends zsh fish groff-base tmux hyperfine
