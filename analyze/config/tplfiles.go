package config

import (
	"path/filepath"
	"strings"
)

// templateSuffixes end the names of template files (Helm, Go, Jinja,
// envsubst): lbctl reads their {{ }} and ${VAR} placeholders as unknown
// values (template.go).
var templateSuffixes = map[string]bool{".tpl": true, ".tmpl": true, ".gotmpl": true, ".template": true,
	".j2": true, ".jinja": true, ".jinja2": true}

// configName is the name a file is read by: a template's without its
// suffix (envoy.yaml.tpl reads as envoy.yaml).
func configName(p string) string {
	if ext := strings.ToLower(filepath.Ext(p)); templateSuffixes[ext] {
		return p[:len(p)-len(ext)]
	}
	return p
}

// ReadInDirectory reports a file a directory walk (and diff --git) reads:
// a .yaml, .yml or .json file, or a template of one (envoy.yaml.tpl,
// bootstrap.json.j2).
func ReadInDirectory(p string) bool {
	return yamlOrJSON(configName(p))
}

// bareTemplate reports a template whose name says nothing of YAML or JSON
// (Helm's _helpers.tpl): a directory walk counts it as skipped.
func bareTemplate(p string) bool {
	return templateSuffixes[strings.ToLower(filepath.Ext(p))] && !ReadInDirectory(p)
}
