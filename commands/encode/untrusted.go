package encode

import (
	"fmt"
	"math"
	"strconv"

	"github.com/lbctl/lbctl/analyze/config"
)

// EscapeStrings escapes, in place, every string a report holds, map keys
// included (cluster, host, locality, route and metadata names come from
// the input), before the text renderers lay them out: a newline in a
// cluster name must not start a new row, an escape sequence must not
// reach the terminal. It finds the strings by reflection (walk.go), so a
// field added to a report is escaped without an edit here. JSON and YAML
// escape on their own and keep the values exact.
func EscapeStrings(v any) {
	_ = walk(v, visitor{str: config.Escape})
}

// EmptySlices sets every nil slice field of lbctl's report types that JSON
// and YAML would print as null (no omitempty) to an empty slice: the
// contract's lists are [] when empty ("notes": [], never null).
func EmptySlices(v any) {
	_ = walk(v, visitor{emptyLists: true})
}

// prepareJSON is EmptySlices and encoding/json's refusal of NaN and
// infinities in one walk, before a streamed writer writes any of v.
func prepareJSON(v any) error {
	return walk(v, visitor{emptyLists: true, num: func(f float64) error {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
		}
		return nil
	}})
}
