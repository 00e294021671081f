package commands

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/admin"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	_ "google.golang.org/grpc/xds" // the xds resolver and CSDS for admin.Register
)

// adsServer is a minimal state-of-the-world ADS management server: every
// request for a type gets every resource of that type once.
type adsServer struct {
	discoveryv3.UnimplementedAggregatedDiscoveryServiceServer
	resources map[string][]proto.Message
}

func (s *adsServer) StreamAggregatedResources(stream discoveryv3.AggregatedDiscoveryService_StreamAggregatedResourcesServer) error {
	sent := map[string]bool{}
	for {
		req, err := stream.Recv()
		if err != nil {
			return nil
		}
		if sent[req.GetTypeUrl()] {
			continue // an ACK or NACK of what was sent
		}
		sent[req.GetTypeUrl()] = true
		resp := &discoveryv3.DiscoveryResponse{TypeUrl: req.GetTypeUrl(), VersionInfo: "1", Nonce: "1"}
		for _, m := range s.resources[req.GetTypeUrl()] {
			a, _ := anypb.New(m)
			resp.Resources = append(resp.Resources, a)
		}
		if err := stream.Send(resp); err != nil {
			return nil
		}
	}
}

// greeterResources: a listener with an inline route to an EDS cluster
// whose two localities weigh 3 and 1.
func greeterResources() map[string][]proto.Message {
	router, _ := anypb.New(&routerv3.Router{})
	hcm, _ := anypb.New(&hcmv3.HttpConnectionManager{
		RouteSpecifier: &hcmv3.HttpConnectionManager_RouteConfig{RouteConfig: &routev3.RouteConfiguration{
			Name: "greeter-routes",
			VirtualHosts: []*routev3.VirtualHost{{Name: "greeter", Domains: []string{"*"}, Routes: []*routev3.Route{{
				Match:  &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: ""}},
				Action: &routev3.Route_Route{Route: &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: "greeter"}}},
			}}}},
		}},
		HttpFilters: []*hcmv3.HttpFilter{{Name: "router", ConfigType: &hcmv3.HttpFilter_TypedConfig{TypedConfig: router}}},
	})
	ads := &corev3.ConfigSource{ConfigSourceSpecifier: &corev3.ConfigSource_Ads{Ads: &corev3.AggregatedConfigSource{}}}
	ep := func(port uint32) *endpointv3.LbEndpoint {
		return &endpointv3.LbEndpoint{HostIdentifier: &endpointv3.LbEndpoint_Endpoint{Endpoint: &endpointv3.Endpoint{
			Address: &corev3.Address{Address: &corev3.Address_SocketAddress{SocketAddress: &corev3.SocketAddress{
				Address: "127.0.0.1", PortSpecifier: &corev3.SocketAddress_PortValue{PortValue: port}}}}}},
			HealthStatus: corev3.HealthStatus_HEALTHY}
	}
	return map[string][]proto.Message{
		"type.googleapis.com/envoy.config.listener.v3.Listener": {&listenerv3.Listener{Name: "greeter.example.com",
			ApiListener: &listenerv3.ApiListener{ApiListener: hcm}}},
		"type.googleapis.com/envoy.config.cluster.v3.Cluster": {&clusterv3.Cluster{Name: "greeter",
			ClusterDiscoveryType: &clusterv3.Cluster_Type{Type: clusterv3.Cluster_EDS},
			EdsClusterConfig:     &clusterv3.Cluster_EdsClusterConfig{EdsConfig: ads}}},
		"type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment": {&endpointv3.ClusterLoadAssignment{ClusterName: "greeter",
			Endpoints: []*endpointv3.LocalityLbEndpoints{
				{Locality: &corev3.Locality{Region: "r1", Zone: "z1"}, LoadBalancingWeight: wrapperspb.UInt32(3), LbEndpoints: []*endpointv3.LbEndpoint{ep(1), ep(2)}},
				{Locality: &corev3.Locality{Region: "r1", Zone: "z2"}, LoadBalancingWeight: wrapperspb.UInt32(1), LbEndpoints: []*endpointv3.LbEndpoint{ep(3)}},
			}}},
	}
}

// TestCSDSClientProcess is the proxyless gRPC client of TestExplainCSDS, run
// in a child process so that grpc-go reads the bootstrap from its
// environment: it serves the admin services (CSDS) and dials the xDS
// target, then prints the admin port and waits to be killed.
func TestCSDSClientProcess(t *testing.T) {
	if os.Getenv("LBCTL_CSDS_CHILD") == "" {
		t.Skip("the child process of TestExplainCSDS")
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	cleanup, err := admin.Register(srv)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	go srv.Serve(lis)
	conn, err := grpc.NewClient("xds:///greeter.example.com", grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.Connect()
	fmt.Println("ADMIN", lis.Addr().String())
	time.Sleep(60 * time.Second) // the parent kills us long before
}

// TestExplainCSDS feeds a real grpc-go client from an in-process xDS server
// and explains what that client received, read through its CSDS service.
func TestExplainCSDS(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a gRPC client process")
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	xds := grpc.NewServer()
	discoveryv3.RegisterAggregatedDiscoveryServiceServer(xds, &adsServer{resources: greeterResources()})
	go xds.Serve(lis)
	defer xds.Stop()

	child := exec.Command(os.Args[0], "-test.run=^TestCSDSClientProcess$", "-test.timeout=90s")
	child.Env = append(os.Environ(), "LBCTL_CSDS_CHILD=1",
		`GRPC_XDS_BOOTSTRAP_CONFIG={"xds_servers":[{"server_uri":"`+lis.Addr().String()+`","channel_creds":[{"type":"insecure"}],"server_features":["xds_v3"]}],"node":{"id":"lbctl-test"}}`)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { child.Process.Kill(); child.Wait() }()
	addr := make(chan string, 1)
	var once sync.Once
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "ADMIN "); ok {
				once.Do(func() { addr <- a })
			}
		}
		io.Copy(io.Discard, out)
	}()
	var admin string
	select {
	case admin = <-addr:
	case <-time.After(30 * time.Second):
		t.Fatal("the gRPC client process did not start")
	}

	// The client fetches LDS, RDS, CDS and EDS in turn: ask until EDS is in.
	var shares map[string]float64
	for range 100 {
		stdout, _, code := runEnv("", watchEnv(2), "explain", "--csds", admin, "-o", "json")
		var r struct {
			Semantics string
			Clusters  []struct {
				Name  string
				Hosts []struct {
					Address string
					Share   float64
				}
			}
		}
		if code == 0 && json.Unmarshal([]byte(stdout), &r) == nil && len(r.Clusters) == 1 && len(r.Clusters[0].Hosts) == 3 {
			if r.Semantics != "grpc" {
				t.Errorf("semantics %q, want grpc for a CSDS answer", r.Semantics)
			}
			shares = map[string]float64{}
			for _, h := range r.Clusters[0].Hosts {
				shares[h.Address] = h.Share
			}
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	// gRPC's xds_wrr_locality: locality weights 3:1, round robin inside.
	want := map[string]float64{"127.0.0.1:1": 0.375, "127.0.0.1:2": 0.375, "127.0.0.1:3": 0.25}
	if len(shares) != 3 {
		t.Fatalf("explain --csds never showed the client's cluster with its 3 endpoints")
	}
	for a, w := range want {
		if d := shares[a] - w; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: share %v, want %v", a, shares[a], w)
		}
	}
	// --watch asks the client again; nothing changes in its xDS state.
	out2, errs, code := runEnv("", watchEnv(2), "explain", "--csds", admin, "--watch", "1ms")
	if code != 0 || !strings.Contains(out2, "gRPC (grpc-core)") ||
		!strings.HasSuffix(out2, "\n[12:00:00Z] fetch 2: no change\n\n[12:00:00Z] fetch 3: no change\n") {
		t.Errorf("explain --csds --watch: exit %d (%s):\n%s", code, errs, out2)
	}
}
