package main

import (
	"context"
	"os/signal"
	"syscall"
)

// untilHangup ends the interactive view's context when its terminal hangs up (SIGHUP), even in a
// program started under nohup, which ignores it: a view with no terminal reads end of file and
// draws into nothing, and a live one would go on watching the cluster for nobody. Only the view
// does this: --plain, -o and record without a view keep nohup's meaning and run on.
func untilHangup(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, syscall.SIGHUP)
}
