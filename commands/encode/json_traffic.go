package encode

import (
	"bytes"
	"errors"
	"io"

	gojson "github.com/goccy/go-json"

	"github.com/lbctl/lbctl/analyze/traffic"
)

// explain -o json of a mesh dump is tens of MB; encoding/json spends most
// of its time on reflection and on re-indenting what it wrote (125 ms for
// a 10,000-cluster dump's report, against 30 ms here). The traffic report
// goes through goccy/go-json, which writes the same bytes
// (json_traffic_test.go compares the two on every fixture and on hostile
// values).

// TrafficJSON writes r as JSON does, one cluster at a time and
// a cluster's host rows in batches: a 100k-host report is tens of MB,
// which as one buffer grew by copies to twice its size (and the collector
// marked the whole heap while it grew). Writes to w end only between JSON
// values, so a string (and any secret in it) reaches the guard whole.
func TrafficJSON(w io.Writer, r *traffic.Report) error {
	if err := prepareJSON(r); err != nil {
		return err // before the first byte, as when the report was one buffer
	}
	tw := trafficWriter{w: w}
	tw.buf = append(tw.buf, "{\n"...)
	if r.Semantics != "" {
		tw.buf = append(tw.buf, `  "semantics": `...)
		if err := tw.encode(r.Semantics, ""); err != nil {
			return err
		}
		tw.buf = append(tw.buf, ",\n"...)
	}
	tw.buf = append(tw.buf, `  "clusters": [`...)
	for i := range r.Clusters {
		if i > 0 {
			tw.buf = append(tw.buf, ',')
		}
		tw.buf = append(tw.buf, "\n    "...)
		if err := tw.cluster(&r.Clusters[i]); err != nil {
			return err
		}
	}
	if len(r.Clusters) > 0 {
		tw.buf = append(tw.buf, "\n  "...)
	}
	tw.buf = append(tw.buf, "]\n}\n"...)
	return tw.flush(0)
}

// trafficWriter gathers output in buf and hands it to w in chunks.
type trafficWriter struct {
	w   io.Writer
	buf []byte
	enc bytes.Buffer
}

const (
	trafficChunk = 256 << 10 // bytes written at a time
	hostBatch    = 256       // host rows per encoder call
	// hostsEmpty is how a cluster's empty host list is written (its fields
	// are at six spaces; a priority's "hosts" count is deeper, and strings
	// hold no raw newline).
	hostsEmpty = "\n      \"hosts\": []"
)

func (tw *trafficWriter) flush(atLeast int) error {
	if len(tw.buf) < atLeast || len(tw.buf) == 0 {
		return nil
	}
	_, err := tw.w.Write(tw.buf)
	tw.buf = tw.buf[:0]
	return err
}

// encode appends v as indented JSON whose first line sits at prefix,
// without the encoder's final newline.
func (tw *trafficWriter) encode(v any, prefix string) error {
	tw.enc.Reset()
	enc := gojson.NewEncoder(&tw.enc)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	tw.buf = append(tw.buf, bytes.TrimSuffix(tw.enc.Bytes(), []byte("\n"))...)
	return nil
}

// cluster writes c with its host rows spliced in where the encoder wrote
// an empty list, hostBatch rows per encoder call.
func (tw *trafficWriter) cluster(c *traffic.ClusterReport) error {
	if len(c.Hosts) == 0 {
		return tw.encode(c, "    ")
	}
	head := *c
	head.Hosts = []traffic.HostReport{}
	start := len(tw.buf)
	if err := tw.encode(&head, "    "); err != nil {
		return err
	}
	at := bytes.Index(tw.buf[start:], []byte(hostsEmpty))
	if at < 0 {
		return errors.New("traffic JSON: no host list in the cluster's encoding")
	}
	at += start + len(hostsEmpty) - 1 // at the list's "]"
	rest := append([]byte(nil), tw.buf[at:]...)
	tw.buf = tw.buf[:at]
	for i := 0; i < len(c.Hosts); i += hostBatch {
		if i > 0 {
			tw.buf = append(tw.buf, ',')
		}
		n := len(tw.buf)
		if err := tw.encode(c.Hosts[i:min(i+hostBatch, len(c.Hosts))], "      "); err != nil {
			return err
		}
		// [\n        {…},\n        {…}\n      ] without the brackets
		body := tw.buf[n+1 : len(tw.buf)-len("\n      ]")]
		tw.buf = append(tw.buf[:n], body...)
		if err := tw.flush(trafficChunk); err != nil {
			return err
		}
	}
	tw.buf = append(tw.buf, "\n      "...)
	tw.buf = append(tw.buf, rest...)
	return tw.flush(trafficChunk)
}
