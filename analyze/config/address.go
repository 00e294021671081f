package config

import (
	"net/netip"
	"strconv"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
)

// FormatAddress writes an address as Envoy's Address::asString does:
// ip:port, IPv6 as [canonical]:port, a pipe as its path, an internal
// address as envoy://listener/endpoint.
func FormatAddress(a *corev3.Address) string {
	switch {
	case a.GetSocketAddress() != nil:
		sa := a.GetSocketAddress()
		port := ""
		switch p := sa.GetPortSpecifier().(type) {
		case *corev3.SocketAddress_PortValue:
			port = strconv.FormatUint(uint64(p.PortValue), 10)
		case *corev3.SocketAddress_NamedPort:
			port = p.NamedPort
		default:
			port = "0"
		}
		host := sa.GetAddress()
		if ip, err := netip.ParseAddr(host); err == nil {
			if ip.Is6() {
				return "[" + ip.String() + "]:" + port
			}
			host = ip.String()
		}
		return host + ":" + port
	case a.GetPipe() != nil:
		return a.GetPipe().GetPath()
	case a.GetEnvoyInternalAddress() != nil:
		ia := a.GetEnvoyInternalAddress()
		return "envoy://" + ia.GetServerListenerName() + "/" + ia.GetEndpointId()
	}
	return ""
}
