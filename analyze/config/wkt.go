package config

import (
	"math"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// wellKnown decodes the messages whose JSON form is not a plain mapping of
// their fields. A decoder returns false to fall back to the plain form.
var wellKnown map[protoreflect.FullName]func(d *decoder, n node, m protoreflect.Message) bool

func init() {
	wrapper := func(d *decoder, n node, m protoreflect.Message) bool {
		if n.Kind() == mappingNode {
			return false
		}
		fd := m.Descriptor().Fields().ByName("value")
		if v, ok := d.scalar(n, fd); ok {
			m.Set(fd, v)
		}
		return true
	}
	wellKnown = map[protoreflect.FullName]func(*decoder, node, protoreflect.Message) bool{
		"google.protobuf.Any":         decodeAny,
		"google.protobuf.Duration":    decodeDuration,
		"google.protobuf.Timestamp":   decodeTimestamp,
		"google.protobuf.Struct":      decodeStruct,
		"google.protobuf.Value":       decodeValue,
		"google.protobuf.ListValue":   decodeList,
		"google.protobuf.FieldMask":   decodeFieldMask,
		"google.protobuf.DoubleValue": wrapper, "google.protobuf.FloatValue": wrapper,
		"google.protobuf.Int64Value": wrapper, "google.protobuf.UInt64Value": wrapper,
		"google.protobuf.Int32Value": wrapper, "google.protobuf.UInt32Value": wrapper,
		"google.protobuf.BoolValue": wrapper, "google.protobuf.StringValue": wrapper,
		"google.protobuf.BytesValue": wrapper,
	}
}

func decodeDuration(d *decoder, n node, m protoreflect.Message) bool {
	if n.Kind() == mappingNode {
		return false // {seconds: 5, nanos: 0}, seen in v2-era configs
	}
	s := n.Value()
	var dur time.Duration
	var err error
	if strings.HasSuffix(s, "s") && n.ShortTag() == "!!str" {
		var f float64
		f, err = strconv.ParseFloat(strings.TrimSuffix(s, "s"), 64)
		if err == nil && (math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 315576000000) {
			err = strconv.ErrRange
		}
		dur = time.Duration(f * float64(time.Second))
		// Keep exact nanoseconds for short decimal strings.
		if err == nil {
			if pd, perr := time.ParseDuration(s); perr == nil {
				dur = pd
			}
		}
	} else {
		err = strconv.ErrSyntax
	}
	if err != nil {
		d.errorf(n, CodeType, "expected a duration such as \"5s\" or \"0.25s\", found "+d.found(n))
		return true
	}
	fields := m.Descriptor().Fields()
	m.Set(fields.ByName("seconds"), protoreflect.ValueOfInt64(int64(dur/time.Second)))
	m.Set(fields.ByName("nanos"), protoreflect.ValueOfInt32(int32(dur%time.Second)))
	return true
}

func decodeTimestamp(d *decoder, n node, m protoreflect.Message) bool {
	if n.Kind() == mappingNode {
		return false
	}
	t, err := time.Parse(time.RFC3339Nano, n.Value())
	if err != nil {
		d.errorf(n, CodeType, "expected an RFC 3339 timestamp, found "+d.value(n))
		return true
	}
	fields := m.Descriptor().Fields()
	m.Set(fields.ByName("seconds"), protoreflect.ValueOfInt64(t.Unix()))
	m.Set(fields.ByName("nanos"), protoreflect.ValueOfInt32(int32(t.Nanosecond())))
	return true
}

func decodeFieldMask(d *decoder, n node, m protoreflect.Message) bool {
	if n.Kind() != scalarNode {
		return false
	}
	list := m.Mutable(m.Descriptor().Fields().ByName("paths")).List()
	for _, p := range strings.Split(n.Value(), ",") {
		if p = strings.TrimSpace(p); p != "" {
			list.Append(protoreflect.ValueOfString(p))
		}
	}
	return true
}

// plainValue converts any node to a structpb value.
func (d *decoder) plainValue(n node) *structpb.Value {
	n = parse.Resolve(n)
	switch n.Kind() {
	case mappingNode:
		s := &structpb.Struct{Fields: map[string]*structpb.Value{}}
		for i := 0; i+1 < n.Len(); i += 2 {
			s.Fields[n.Child(i).Value()] = d.plainValue(n.Child(i + 1))
		}
		d.src.record(s, n)
		return structpb.NewStructValue(s)
	case sequenceNode:
		l := &structpb.ListValue{}
		for ci := range n.Len() {
			c := n.Child(ci)
			l.Values = append(l.Values, d.plainValue(c))
		}
		return structpb.NewListValue(l)
	}
	switch n.ShortTag() {
	case "!!null":
		return structpb.NewNullValue()
	case "!!bool":
		b, _ := strconv.ParseBool(strings.ToLower(n.Value()))
		return structpb.NewBoolValue(b)
	case "!!int", "!!float":
		if f, err := parseFloat(n.Value()); err == nil {
			return structpb.NewNumberValue(f)
		}
		if i, err := strconv.ParseInt(n.Value(), 0, 64); err == nil {
			return structpb.NewNumberValue(float64(i))
		}
	}
	return structpb.NewStringValue(n.Value())
}

func decodeStruct(d *decoder, n node, m protoreflect.Message) bool {
	if n.Kind() != mappingNode {
		d.errorf(n, CodeType, "expected a mapping, found "+kindName(n))
		return true
	}
	proto.Merge(m.Interface(), d.plainValue(n).GetStructValue())
	return true
}

func decodeValue(d *decoder, n node, m protoreflect.Message) bool {
	proto.Merge(m.Interface(), d.plainValue(n))
	return true
}

func decodeList(d *decoder, n node, m protoreflect.Message) bool {
	if n.Kind() != sequenceNode {
		d.errorf(n, CodeType, "expected a list, found "+kindName(n))
		return true
	}
	proto.Merge(m.Interface(), d.plainValue(n).GetListValue())
	return true
}

// decodeAny decodes {"@type": URL, ...fields} by resolving the type among
// the linked go-control-plane packages. The decoded payload is kept (with its
// positions) in Sources, so later stages need not unmarshal it again. An
// unknown type is a warning: the payload is kept opaque and not checked.
func decodeAny(d *decoder, n node, m protoreflect.Message) bool {
	if n.Kind() != mappingNode {
		d.errorf(n, CodeType, "expected a mapping with \"@type\", found "+kindName(n))
		return true
	}
	a := m.Interface().(*anypb.Any)
	lbExt := d.lbExt
	if lbExt { // the payload's own extensions decide nothing about LB
		d.lbExt = false
		defer func() { d.lbExt = true }()
	}
	tn, tk := parse.MapGet(n, "@type")
	var mt protoreflect.MessageType
	var legacy, url string
	untyped := false
	switch {
	case tn.OK():
		url = tn.Value()
		mt, legacy = resolveType(url)
	case n.Len() == 0:
		// typed_config: {} is an empty config; Envoy picks the factory by name.
		return true
	case d.anyField != "" && v2Untyped[d.anyField] != "":
		// v2alpha admin dumps held plain messages where v3 has Any.
		legacy = v2Untyped[d.anyField]
		url = "type.googleapis.com/" + legacy
		mt, _ = resolveType(legacy)
		tn = n
		untyped = true
	default:
		d.errorf(n, CodeType, "typed config has no \"@type\"")
		return true
	}
	a.TypeUrl = url
	if mt == nil {
		if lbExt {
			d.problem(tn, SevWarning, CodeUnknownLBType, "unknown load-balancing extension "+Quote(url)+": lbctl cannot model how it spreads traffic, so explain and lint say nothing about it")
		} else {
			d.problem(tn, SevWarning, CodeUnknownType, "unknown type "+Quote(url)+": lbctl does not know this extension, so its settings are not checked")
		}
		return true
	}
	if legacy != "" {
		msg := Quote(url) + " is v2; read as " + legacy
		if untyped {
			msg = "a plain message without \"@type\" (v2alpha admin dump); read as " + legacy
		}
		d.problem(tn, SevWarning, CodeLegacy, msg)
		a.TypeUrl = "type.googleapis.com/" + legacy
	}
	payload := mt.New()
	sub := *d
	sub.probs = nil
	sub.lenient = d.lenient || legacy != ""
	body := n
	if tk.OK() {
		body = n.Without(tk)
	}
	if wellKnown[payload.Descriptor().FullName()] != nil {
		// Well-known types keep their JSON form under "value".
		if v, _ := parse.MapGet(n, "value"); v.OK() {
			body = v
		}
	}
	sub.message(body, payload)
	d.probs = append(d.probs, sub.probs...)
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(payload.Interface())
	if err != nil {
		d.errorf(n, CodeInvalidValue, "cannot encode "+Quote(url)+": "+err.Error())
		return true
	}
	a.Value = b
	d.src.unpacked[a] = payload.Interface()
	d.src.record(payload.Interface(), n)
	return true
}
