package fetch

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/option"
)

func TestFetchAdminSizeLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat(" ", 101)))
	}))
	defer srv.Close()
	_, err := Admin(srv.URL, Options{MaxBytes: 100})
	if err == nil || !strings.Contains(err.Error(), "/config_dump: answer larger than 100 bytes (raise "+option.MaxInput.String()+")") {
		t.Errorf("got %v, want the size limit named", err)
	}
	if _, err := Admin(srv.URL, Options{MaxBytes: 101}); err != nil {
		t.Errorf("101 bytes under a 101-byte limit: %v", err)
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "127.0.0.1": true, "127.9.9.9": true, "::1": true,
		"10.0.0.1": false, "192.168.1.1": false, "example.com": false, "0.0.0.0": false, "": false,
	} {
		if got := IsLoopback(host); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", host, got, want)
		}
	}
}
