package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0002 duplicate-key: a mapping repeats a key (load problem config.CodeDuplicateKey).
// Its default severity is the YAML warning; each finding carries its own
// (info for a harmless YAML repeat, error for JSON), SARIF results too.
var _ = register(&Rule{
	ID:       "LB0002",
	Name:     "duplicate-key",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevWarning},
	Doc: "A mapping repeats a key: a warning in YAML when the first value would change what lbctl reports, else info; " +
		"an error in JSON. In YAML Envoy keeps the last value (yaml_utility.cc parseYamlNode assigns " +
		"struct_fields[key] for each pair), and so does lbctl. lbctl decodes the document again with the first value " +
		"and compares the clusters, their endpoints and the route configurations: a warning, naming the resource and " +
		"field, when the first value would change one of them (what the file seems to say is not what Envoy runs); info " +
		"when the values are equal or only something lbctl does not report on differs (connection, DNS, stats settings, " +
		"admin, node). In JSON protobuf's parser rejects a field that has already been set (MessageUtil::loadFromJson " +
		"in source/common/protobuf/utility.cc throws on JsonStringToMessage's error), so Envoy rejects the file: an error.",
	Hint:  "Remove or merge the repeated key.",
	Check: loadRule(config.CodeDuplicateKey),
})
