package lint

// LB1103 origdst-header (ENV-ORIGDST-HEADER).
var _ = register(&Rule{
	ID: "LB1103", Name: "origdst-header", Spec: "ENV-ORIGDST-HEADER",
	Severity: map[Target]Severity{TargetEnvoy: SevError},
	Doc: "original_dst_lb_config.http_header_name set while use_http_header is false. The header name is " +
		"only read when the destination comes from a header; original_dst_cluster.cc rejects the cluster " +
		"(\"ORIGINAL_DST cluster: invalid config http_header_name={} and use_http_header is false\").",
	Hint: "Set use_http_header: true, or remove http_header_name.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			o := cl.Proto.GetOriginalDstLbConfig()
			if o.GetHttpHeaderName() != "" && !o.GetUseHttpHeader() {
				p.Report(p.pos(o, "http_header_name"), "http_header_name %q is set but use_http_header is false", o.GetHttpHeaderName())
			}
		}
	},
})
