package config

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// decoder fills protobuf messages from YAML nodes, the way protojson reads
// Envoy's JSON form, but keeping every node's position and reporting every
// problem with it (protojson stops at the first error and gives a byte
// offset into JSON the user never wrote).
type decoder struct {
	file  string
	src   *Sources
	probs Problems
	// lenient makes unknown fields warnings: admin dumps from newer Envoys
	// and v2-era payloads carry fields this build does not know.
	lenient bool
	// anyField is the full name of the field whose value is being decoded,
	// for Any fields whose type follows from where they stand.
	anyField protoreflect.FullName
	// lbScope is set inside load-balancing config (clusters, endpoints,
	// routes, LB extensions), where an unknown field is an error.
	lbScope bool
	// lbExt is set below a field whose extension decides load balancing
	// (lbDeciding), until the Any it leads to.
	lbExt bool
	// secrecy says whether the values being decoded may be quoted.
	secrecy
	// inChunk is set in a chunk of a list decoded in parallel (fanout.go):
	// its lists are decoded on its goroutine.
	inChunk bool
	// stack is the mappings of the messages being decoded, innermost
	// last, for marking where an unknown (template) value stands.
	stack []node
}

// lbDeciding are the fields whose typed extension decides how a cluster
// picks hosts or a route picks a cluster.
var lbDeciding = map[protoreflect.FullName]bool{
	"envoy.config.cluster.v3.LoadBalancingPolicy.Policy.typed_extension_config": true,
	"envoy.config.cluster.v3.Cluster.CustomClusterType.typed_config":            true,
	"envoy.config.route.v3.RouteAction.inline_cluster_specifier_plugin":         true,
	"envoy.config.route.v3.RouteConfiguration.cluster_specifier_plugins":        true,
}

// inLBScope reports whether a message belongs to load-balancing config.
func inLBScope(name protoreflect.FullName) bool {
	for _, p := range []string{"envoy.config.cluster.", "envoy.config.endpoint.", "envoy.config.route.",
		"envoy.extensions.clusters.", "envoy.extensions.load_balancing_policies."} {
		if strings.HasPrefix(string(name), p) {
			return true
		}
	}
	return false
}

func (d *decoder) problem(n node, sev Severity, code, msg string) {
	d.probs = append(d.probs, Problem{Pos: nodePos(d.file, n), Severity: sev, Code: code, Msg: safeMsg(msg)})
}

func (d *decoder) errorf(n node, code, msg string) { d.problem(n, SevError, code, msg) }

// message decodes a mapping node into m.
func (d *decoder) message(n node, m protoreflect.Message) {
	n = parse.Resolve(n)
	desc := m.Descriptor()
	info := infoOf(desc)
	if special := info.special; special != nil {
		if special(d, n, m) {
			d.src.record(m.Interface(), n)
			return
		}
	}
	if n.Kind() != mappingNode {
		d.errorf(n, CodeType, "expected a mapping for "+string(desc.FullName())+", found "+kindName(n))
		return
	}
	d.src.record(m.Interface(), n)
	d.stack = append(d.stack, n)
	defer func() { d.stack = d.stack[:len(d.stack)-1] }()
	if !d.secretHeader && info.header != "" && headerNamed(info.header, n) {
		d.secretHeader = true
		defer func() { d.secretHeader = false }()
	}
	if !d.lbScope && info.lbScope {
		d.lbScope = true
		defer func() { d.lbScope = false }()
	}
	fields := desc.Fields()
	// The oneofs set so far: a few at most, so a slice on the stack rather
	// than a map per message.
	var oneofBuf [4]oneofSeen
	oneofSet := oneofBuf[:0]
	for i := 0; i+1 < n.Len(); i += 2 {
		k, v := n.Child(i), parse.Resolve(n.Child(i+1))
		if k.Value() == "<<" { // YAML merge key: read the anchored mapping in place
			d.message(v, m)
			continue
		}
		fd := fields.ByName(protoreflect.Name(k.Value()))
		if fd == nil {
			fd = fields.ByJSONName(k.Value())
		}
		if fd == nil {
			if legacy := legacyFields[desc.FullName()][k.Value()]; legacy != nil {
				legacy(d, k, v, m)
				continue
			}
			d.unknownField(k, desc)
			continue
		}
		if hasSentinel(v) {
			// A template placeholder: unknown, not wrong; unset unless a
			// string is due.
			d.src.markUnknown(d.file, d.stack)
			if fd.Kind() != protoreflect.StringKind || fd.IsList() || fd.IsMap() {
				continue
			}
		}
		if isNull(v) && (fd.Message() == nil || fd.Message().FullName() != "google.protobuf.Value" || fd.IsList()) {
			continue // protojson: null means unset
		}
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			if prev, ok := oneofKey(oneofSet, od.FullName()); ok {
				d.errorf(k, CodeOneof, Quote(k.Value())+" and "+Quote(prev.Value())+" are both set, but only one of "+string(od.Name())+" may be")
				continue
			}
			oneofSet = append(oneofSet, oneofSeen{od.FullName(), k})
		}
		d.field(k, v, m, fd, info.fields[fd.Index()])
	}
}

// oneofSeen is a oneof set in a mapping, and the key that set it.
type oneofSeen struct {
	name protoreflect.FullName
	key  node
}

// oneofKey is the key that set oneof name, if one did.
func oneofKey(set []oneofSeen, name protoreflect.FullName) (node, bool) {
	for _, s := range set {
		if s.name == name {
			return s.key, true
		}
	}
	return node{}, false
}

func isNull(n node) bool { return n.Kind() == scalarNode && n.ShortTag() == "!!null" }

func (d *decoder) unknownField(k node, desc protoreflect.MessageDescriptor) {
	msg := "unknown field " + Quote(k.Value()) + " in " + string(desc.FullName())
	if s := suggestField(k.Value(), desc); s != "" {
		msg += " (did you mean \"" + s + "\"?)"
	}
	sev := SevError
	if strings.HasPrefix(string(desc.FullName()), "envoy.extensions.load_balancing_policies.") {
		// A known LB extension with a field newer than lbctl's protos
		// (e.g. WrrLocality.locality_lb_config): explain the rest.
		d.problem(k, SevWarning, CodeUnknownField, msg+"; it may be newer than lbctl's Envoy protos, lbctl ignores it and reads on")
		return
	}
	if d.lenient || !d.lbScope {
		// Outside load-balancing config (listeners, filters, bootstrap) an
		// unknown field is most likely one of a newer or older Envoy than
		// this build; lbctl does not use it, so it only warns.
		sev = SevWarning
		msg += "; lbctl does not use this part of the config and reads on"
	}
	d.problem(k, sev, CodeUnknownField, msg)
}

// field decodes v into field fd of m; flags are msgInfo's for fd.
func (d *decoder) field(k, v node, m protoreflect.Message, fd protoreflect.FieldDescriptor, flags fieldFlags) {
	if d.secret == "" && d.isSecret(k, flags&fieldSecret != 0) {
		d.secret = string(fd.Name())
		d.src.secrets.addValues(&d.src.fileTexts, d.file, v)
		defer func() { d.secret = "" }()
	}
	if flags&fieldLBDeciding != 0 && !d.lbExt {
		d.lbExt = true
		defer func() { d.lbExt = false }()
	}
	switch {
	case fd.IsMap():
		if v.Kind() != mappingNode {
			d.errorf(v, CodeType, "expected a mapping for "+Quote(k.Value())+", found "+kindName(v))
			return
		}
		mp := m.Mutable(fd).Map()
		for i := 0; i+1 < v.Len(); i += 2 {
			mk, mv := v.Child(i), parse.Resolve(v.Child(i+1))
			key, ok := d.scalar(mk, fd.MapKey())
			if !ok {
				continue
			}
			if fd.MapValue().Message() != nil {
				val := mp.NewValue()
				d.message(mv, val.Message())
				mp.Set(key.MapKey(), val)
			} else if val, ok := d.scalar(mv, fd.MapValue()); ok {
				mp.Set(key.MapKey(), val)
			}
		}
	case fd.IsList():
		// protobuf's JSON parser takes a single value in place of a list
		// when allow_legacy_syntax is set (json/internal/parser.cc
		// ParseField), and JsonStringToMessage, which Envoy's
		// MessageUtil::loadFromJson calls, always sets it (json/json.cc):
		// Envoy accepts it, and envoyproxy/examples relies on it.
		count, one := v.Len(), v.Kind() != sequenceNode
		if one {
			count = 1
		}
		list := m.Mutable(fd).List()
		if fd.Message() != nil && !one && d.fanOut(v, count) {
			d.messages(list, v)
			return
		}
		for i := range count {
			item := v
			if !one {
				item = parse.Resolve(v.Child(i))
			}
			if fd.Message() != nil {
				el := list.AppendMutable()
				d.message(item, el.Message())
			} else if val, ok := d.scalar(item, fd); ok {
				list.Append(val)
			}
		}
	case fd.Message() != nil:
		d.anyField = fd.FullName()
		d.message(v, m.Mutable(fd).Message())
		d.anyField = ""
	default:
		if val, ok := d.scalar(v, fd); ok {
			m.Set(fd, val)
		}
	}
}

// scalar reads a scalar node as the field's kind, accepting what protojson
// accepts (quoted integers, "NaN", enum names or numbers) plus enum names in
// any case, as Envoy's JSON parser does.
func (d *decoder) scalar(n node, fd protoreflect.FieldDescriptor) (protoreflect.Value, bool) {
	n = parse.Resolve(n)
	if n.Kind() != scalarNode {
		d.errorf(n, CodeType, "expected "+kindWanted(fd)+" for "+d.fieldName(fd)+", found "+kindName(n))
		return protoreflect.Value{}, false
	}
	tag := n.ShortTag()
	bad := func() (protoreflect.Value, bool) {
		d.errorf(n, CodeType, "expected "+kindWanted(fd)+" for "+d.fieldName(fd)+", found "+d.found(n))
		return protoreflect.Value{}, false
	}
	switch fd.Kind() {
	case protoreflect.BoolKind:
		if tag != "!!bool" {
			if b, ok := yamlCppBool(n); ok {
				return protoreflect.ValueOfBool(b), true
			}
			return bad()
		}
		b, _ := strconv.ParseBool(strings.ToLower(n.Value()))
		return protoreflect.ValueOfBool(b), true
	case protoreflect.StringKind:
		if tag != "!!str" {
			return bad()
		}
		return protoreflect.ValueOfString(n.Value()), true
	case protoreflect.BytesKind:
		b, err := base64.StdEncoding.DecodeString(n.Value())
		if err != nil {
			if b, err = base64.URLEncoding.DecodeString(n.Value()); err != nil {
				d.errorf(n, CodeType, "expected base64 bytes for "+d.fieldName(fd)+", found "+d.value(n))
				return protoreflect.Value{}, false
			}
		}
		return protoreflect.ValueOfBytes(b), true
	case protoreflect.EnumKind:
		return d.enum(n, fd)
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		if tag != "!!float" && tag != "!!int" && tag != "!!str" {
			return bad()
		}
		f, err := parseFloat(n.Value())
		if err != nil {
			return bad()
		}
		if fd.Kind() == protoreflect.FloatKind {
			if math.Abs(f) > math.MaxFloat32 && !math.IsInf(f, 0) {
				d.errorf(n, CodeInvalidValue, "value "+d.value(n)+" is out of range for a float")
				return protoreflect.Value{}, false
			}
			return protoreflect.ValueOfFloat32(float32(f)), true
		}
		return protoreflect.ValueOfFloat64(f), true
	}
	// Integers.
	if tag != "!!int" && tag != "!!str" && tag != "!!float" {
		return bad()
	}
	text := strings.TrimSpace(n.Value())
	signed := fd.Kind() == protoreflect.Int32Kind || fd.Kind() == protoreflect.Sint32Kind ||
		fd.Kind() == protoreflect.Sfixed32Kind || fd.Kind() == protoreflect.Int64Kind ||
		fd.Kind() == protoreflect.Sint64Kind || fd.Kind() == protoreflect.Sfixed64Kind
	bits := 64
	switch fd.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind,
		protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		bits = 32
	}
	if signed {
		i, err := parseInt(text, bits)
		if err != nil {
			d.errorf(n, CodeType, "expected "+kindWanted(fd)+" for "+d.fieldName(fd)+", found "+d.value(n))
			return protoreflect.Value{}, false
		}
		if bits == 32 {
			return protoreflect.ValueOfInt32(int32(i)), true
		}
		return protoreflect.ValueOfInt64(i), true
	}
	if strings.HasPrefix(text, "-") {
		d.errorf(n, CodeInvalidValue, "expected a non-negative integer for "+d.fieldName(fd)+", found "+d.value(n))
		return protoreflect.Value{}, false
	}
	u, err := parseUint(text, bits)
	if err != nil {
		d.errorf(n, CodeType, "expected "+kindWanted(fd)+" for "+d.fieldName(fd)+", found "+d.value(n))
		return protoreflect.Value{}, false
	}
	if bits == 32 {
		return protoreflect.ValueOfUint32(uint32(u)), true
	}
	return protoreflect.ValueOfUint64(u), true
}

func parseInt(s string, bits int) (int64, error) {
	i, err := strconv.ParseInt(s, 0, bits)
	if err == nil {
		return i, nil
	}
	f, ferr := strconv.ParseFloat(s, 64) // protojson accepts 1e3 and 5.0
	if ferr != nil || f != math.Trunc(f) || math.Abs(f) > math.Exp2(float64(bits-1)) {
		return 0, err
	}
	return int64(f), nil
}

func parseUint(s string, bits int) (uint64, error) {
	u, err := strconv.ParseUint(s, 0, bits)
	if err == nil {
		return u, nil
	}
	f, ferr := strconv.ParseFloat(s, 64)
	if ferr != nil || f != math.Trunc(f) || f < 0 || f >= math.Exp2(float64(bits)) {
		return 0, err
	}
	return uint64(f), nil
}

func parseFloat(s string) (float64, error) {
	switch s {
	case "NaN", ".nan", ".NaN":
		return math.NaN(), nil
	case "Infinity", ".inf", ".Inf":
		return math.Inf(1), nil
	case "-Infinity", "-.inf", "-.Inf":
		return math.Inf(-1), nil
	}
	return strconv.ParseFloat(strings.TrimSpace(s), 64)
}

func (d *decoder) enum(n node, fd protoreflect.FieldDescriptor) (protoreflect.Value, bool) {
	values := fd.Enum().Values()
	if n.ShortTag() == "!!int" {
		i, err := strconv.ParseInt(n.Value(), 0, 32)
		if err == nil {
			return protoreflect.ValueOfEnum(protoreflect.EnumNumber(i)), true
		}
	}
	if v3, ok := v2EnumValues[n.Value()]; ok && values.ByName(protoreflect.Name(v3)) != nil {
		d.problem(n, SevWarning, CodeLegacy, Safe(n.Value())+" is a v2 value, removed in v3; read as "+v3)
		return protoreflect.ValueOfEnum(values.ByName(protoreflect.Name(v3)).Number()), true
	}
	if v := values.ByName(protoreflect.Name(n.Value())); v != nil {
		return protoreflect.ValueOfEnum(v.Number()), true
	}
	for i := 0; i < values.Len(); i++ {
		if strings.EqualFold(string(values.Get(i).Name()), n.Value()) {
			return protoreflect.ValueOfEnum(values.Get(i).Number()), true
		}
	}
	names := make([]string, 0, values.Len())
	for i := 0; i < values.Len(); i++ {
		name := string(values.Get(i).Name())
		if !strings.HasPrefix(name, "hidden_envoy_deprecated") && !strings.HasPrefix(name, "DEPRECATED") {
			names = append(names, name)
		}
	}
	msg := "unknown value " + d.value(n) + " for " + string(fd.Enum().Name())
	if s := parse.Closest(n.Value(), names); s != "" {
		msg += " (did you mean " + s + "?)"
	} else {
		msg += " (expected one of " + strings.Join(names, ", ") + ")"
	}
	d.errorf(n, CodeInvalidValue, msg)
	return protoreflect.Value{}, false
}

func kindWanted(fd protoreflect.FieldDescriptor) string {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return "true or false"
	case protoreflect.StringKind:
		return "a string"
	case protoreflect.BytesKind:
		return "base64 bytes"
	case protoreflect.EnumKind:
		return "a " + string(fd.Enum().Name()) + " name"
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return "a number"
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "a non-negative integer"
	}
	return "an integer"
}

// resolveType finds a message type by type URL, mapping v2 names to their v3
// successors (legacy is the v3 name then).
func resolveType(url string) (mt protoreflect.MessageType, legacy string) {
	name := TypeName(url)
	if mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(name)); err == nil {
		return mt, ""
	}
	if v3, ok := v2Types[name]; ok {
		if mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(v3)); err == nil {
			return mt, v3
		}
	}
	if strings.HasPrefix(name, "envoy.admin.v2alpha.") {
		v3 := "envoy.admin.v3." + strings.TrimPrefix(name, "envoy.admin.v2alpha.")
		if mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(v3)); err == nil {
			return mt, v3
		}
	}
	return nil, ""
}

// suggestField finds the field name closest to a misspelt key.
func suggestField(key string, desc protoreflect.MessageDescriptor) string {
	fields := desc.Fields()
	names := make([]string, 0, fields.Len())
	for i := 0; i < fields.Len(); i++ {
		names = append(names, string(fields.Get(i).Name()))
	}
	return parse.Closest(key, names)
}
