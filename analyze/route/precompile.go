package route

import (
	"fmt"

	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/lbctl/lbctl/analyze/config"
)

// precompile compiles every regex of the route configuration, as Envoy
// does when it loads one: a pattern that does not compile (or is over our
// limits) refuses the whole configuration, not only its own route.
func precompile(cfg *config.Config, m *matcher, root proto.Message) error {
	var err error
	var walk func(protoreflect.Message)
	walk = func(msg protoreflect.Message) {
		if err != nil {
			return
		}
		if rm, ok := msg.Interface().(*matcherv3.RegexMatcher); ok {
			if m.regex(rm.GetRegex()) == nil {
				err = fmt.Errorf("%s: %s", cfg.Sources.Pos(rm), clean(m.err.Error()))
			}
			return
		}
		msg.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			if fd.Kind() != protoreflect.MessageKind && fd.Kind() != protoreflect.GroupKind {
				return true
			}
			switch {
			case fd.IsList():
				l := v.List()
				for i := 0; i < l.Len(); i++ {
					walk(l.Get(i).Message())
				}
			case fd.IsMap():
				v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
					if fd.MapValue().Kind() == protoreflect.MessageKind {
						walk(mv.Message())
					}
					return true
				})
			default:
				walk(v.Message())
			}
			return err == nil
		})
	}
	walk(root.ProtoReflect())
	return err
}
