//go:build tools

// Package tools only records the command this module builds.
package tools

import _ "github.com/jaegertracing/jaeger/cmd/jaeger"
