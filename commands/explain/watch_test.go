package explain

import (
	"context"
	"testing"
	"time"

	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/analyze/watch"
)

// TestWatchStopsOnCancel: without a round limit the watch runs until its
// context ends (Ctrl-C), then returns cleanly.
func TestWatchStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &traffic.Report{}
	var fetches []int
	done := make(chan error, 1)
	go func() {
		done <- watchLoop(ctx, time.Millisecond, 0, time.Now, r, func() (*traffic.Report, error) { return r, nil }, func(f watch.Fetch) error {
			fetches = append(fetches, f.Fetch)
			if len(fetches) == 3 {
				cancel()
			}
			return nil
		})
	}()
	select {
	case err := <-done:
		if err != nil || len(fetches) != 3 || fetches[2] != 4 {
			t.Errorf("err %v, fetches %v; want nil and [2 3 4]", err, fetches)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("watch did not stop when its context ended")
	}
}
