package fetch

import (
	"context"
	"fmt"
	"net"
	"time"

	statusv3 "github.com/envoyproxy/go-control-plane/envoy/service/status/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/option"
)

// CSDS asks the Client Status Discovery Service at addr (HOST:PORT of
// a gRPC server with the admin services registered, e.g. grpc-go's
// admin.Register) for the xDS state of every client it serves, and returns
// the answer as an in-memory ClientStatusResponse input.
func CSDS(addr string, opt Options) (config.Input, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return config.Input{}, fmt.Errorf("%s %q: expected HOST:PORT, e.g. 127.0.0.1:50052", option.CSDS, addr)
	}
	if !opt.AllowRemote && !IsLoopback(host) {
		return config.Input{}, fmt.Errorf("%s: not a loopback address; lbctl reads remote CSDS endpoints only with %s", addr, option.AllowRemote)
	}
	timeout, max := opt.Timeout, opt.MaxBytes
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	if max <= 0 {
		max = config.DefaultMaxInput
	}
	conn, err := grpc.NewClient("passthrough:///"+addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(int(max))))
	if err != nil {
		return config.Input{}, fmt.Errorf("%s: %v", addr, err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	resp, err := statusv3.NewClientStatusDiscoveryServiceClient(conn).FetchClientStatus(ctx, &statusv3.ClientStatusRequest{})
	if err != nil {
		if ctx.Err() != nil {
			return config.Input{}, fmt.Errorf("%s: no answer from CSDS within %s (%s)", addr, timeout, option.Timeout)
		}
		return config.Input{}, fmt.Errorf("%s: CSDS FetchClientStatus: %v", addr, err)
	}
	data, err := protojson.Marshal(resp)
	if err != nil { // a resource type lbctl does not link
		return config.Input{}, fmt.Errorf("%s: CSDS answer: %v", addr, err)
	}
	return config.Input{Path: addr + " (CSDS)", Data: data}, nil
}
