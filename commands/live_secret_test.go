package commands

import (
	"strings"
	"testing"
)

// secretDump is an admin config_dump whose cluster carries an upstream TLS
// context with an inline private key (inline_string) and an inline
// certificate (inline_bytes), and whose SecretsConfigDump holds a static
// secret with another inline key, as Envoy's admin prints them when
// nothing redacts them.
const secretDump = `{"configs": [
 {"@type": "type.googleapis.com/envoy.admin.v3.ClustersConfigDump", "static_clusters": [
  {"cluster": {"@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster", "name": "backend", "type": "STATIC", "lb_policy": "RING_HASH",
   "transport_socket": {"name": "envoy.transport_sockets.tls", "typed_config": {
    "@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext",
    "common_tls_context": {"tls_certificates": [{
     "certificate_chain": {"inline_bytes": "` + secretCertB64 + `"},
     "private_key": {"inline_string": "` + secretKey + `"}}]}}},
   "load_assignment": {"cluster_name": "backend", "endpoints": [{"lb_endpoints": [
    {"endpoint": {"address": {"socket_address": {"address": "10.0.0.1", "port_value": 8443}}}},
    {"endpoint": {"address": {"socket_address": {"address": "10.0.0.2", "port_value": 8443}}}}]}]}}}]},
 {"@type": "type.googleapis.com/envoy.admin.v3.SecretsConfigDump", "static_secrets": [
  {"name": "client-cert", "secret": {"@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret", "name": "client-cert",
   "tls_certificate": {"private_key": {"inline_string": "` + secretKey2 + `"}}}}]}]}`

const (
	secretKey  = `-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDlbctlSECRETKEY1\n-----END PRIVATE KEY-----\n`
	secretKey2 = `-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIlbctlSECRETKEY2xyzzy\n-----END EC PRIVATE KEY-----\n`
	// secretCertB64 is base64 of "lbctl-inline-cert-bytes-SECRETKEY3".
	secretCertB64 = "bGJjdGwtaW5saW5lLWNlcnQtYnl0ZXMtU0VDUkVUS0VZMw=="
)

// TestAdminSecretsNeverPrinted: the contract's Limits: values of
// secret-bearing fields are never printed, in any format. A dump served by
// the admin test server with inline keys goes through explain, lint and
// hash in text and JSON; no part of a key appears on stdout or stderr.
func TestAdminSecretsNeverPrinted(t *testing.T) {
	checkNoSecrets(t, secretDump)
}

// TestAdminSecretsOneLine: the same dump on one line with a lint finding
// (LB1114) on it, so that the source line lint quotes under a finding
// holds the keys: the snippet masks them.
func TestAdminSecretsOneLine(t *testing.T) {
	dump := strings.ReplaceAll(secretDump, "\n", "")
	dump = strings.Replace(dump, `"load_assignment"`, `"least_request_lb_config": {"choice_count": 3}, "load_assignment"`, 1)
	checkNoSecrets(t, dump)
}

// checkNoSecrets serves dump through the admin test server and runs
// explain, lint, hash and sweep on it in text and JSON.
func checkNoSecrets(t *testing.T, dump string) {
	t.Helper()
	srv, _ := adminServer(t, "", []byte(dump), []byte(`{"cluster_statuses": []}`))
	needles := []string{"SECRETKEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw", "MHcCAQEEI", "BEGIN PRIVATE KEY", "BEGIN EC PRIVATE KEY", secretCertB64}
	for _, args := range [][]string{
		{"explain", "--admin", srv.URL},
		{"explain", "--admin", srv.URL, "-o", "json"},
		{"explain", "--admin", srv.URL, "-o", "yaml"},
		{"lint", "--admin", srv.URL},
		{"lint", "--admin", srv.URL, "--format", "json"},
		{"hash", "--admin", srv.URL, "--cluster", "backend"},
		{"hash", "--admin", srv.URL, "--cluster", "backend", "-o", "json"},
		{"sweep", "--admin", srv.URL, "--cluster", "backend", "-o", "json"},
	} {
		out, errs, code := run(t, "", args...)
		if code == ExitInput || code == ExitUsage {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
		for _, n := range needles {
			if strings.Contains(out, n) || strings.Contains(errs, n) {
				t.Errorf("%v prints secret material %q:\n%s%s", args, n, out, errs)
			}
		}
	}
}
