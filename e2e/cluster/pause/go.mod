module sidecar-top/e2e/cluster/pause

go 1.26.0
