package config

import (
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// msgInfo is what the decoder asks about a message type for every message
// and field of it: looked up once per message by descriptor (hashing a
// pointer) rather than by full name in several maps per message and field.
type msgInfo struct {
	special func(*decoder, node, protoreflect.Message) bool // wellKnown
	header  string                                          // headerMessages
	lbScope bool                                            // inLBScope
	fields  []fieldFlags                                    // by field index
}

type fieldFlags uint8

const (
	fieldSecret     fieldFlags = 1 << iota // a credential by its name or message type
	fieldLBDeciding                        // lbDeciding
)

var msgInfos sync.Map // protoreflect.MessageDescriptor -> *msgInfo

func infoOf(desc protoreflect.MessageDescriptor) *msgInfo {
	if v, ok := msgInfos.Load(desc); ok {
		return v.(*msgInfo)
	}
	name := desc.FullName()
	info := &msgInfo{special: wellKnown[name], header: headerMessages[name], lbScope: inLBScope(name)}
	fields := desc.Fields()
	info.fields = make([]fieldFlags, fields.Len())
	for i := range info.fields {
		fd := fields.Get(i)
		if m := fd.Message(); IsSecretField(string(fd.Name())) || m != nil && secretMessages[string(m.FullName())] {
			info.fields[i] |= fieldSecret
		}
		if lbDeciding[fd.FullName()] {
			info.fields[i] |= fieldLBDeciding
		}
	}
	msgInfos.Store(desc, info)
	return info
}
