package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/sidecar-top/sidecar-top/play"
	"github.com/sidecar-top/sidecar-top/ui"
)

// The speeds --speed accepts, besides max: slower than a tenth, a second of the recording
// takes longer than ten; faster than 1000×, an hour takes less than four seconds, as max does.
const (
	minSpeed = 0.1
	maxSpeed = 1000
)

// defaultIdleLimit is --idle-limit's default: the longest a replay shows nothing new, at 1×.
const defaultIdleLimit = 5 * time.Second

// replayOptions are the flags of replay and demo.
type replayOptions struct {
	output    string
	pretty    bool // -o json indented
	speedArg  string
	idleLimit time.Duration

	// Set by validate.
	speed float64 // a factor, or play.SpeedMax
	paced bool    // --speed was given: plain output plays at it rather than at once
}

func (o *replayOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.output, "output", "o", "", "json or yaml: print the final timeline so instead of playing it")
	fs.BoolVar(&o.pretty, "pretty", false, "with -o json: indent the JSON (it is compact otherwise)")
	fs.StringVar(&o.speedArg, "speed", "1", fmt.Sprintf("playing speed: a factor from %g to %g (1, 2, 10) or max; plain output defaults to max", minSpeed, float64(maxSpeed)))
	fs.DurationVar(&o.idleLimit, "idle-limit", defaultIdleLimit, "play a pause of the recording longer than this for this long (divided by the speed), and say so; 0 plays pauses as recorded")
}

// validate reads the flags, and the colour mode, before anything is opened. terminal says
// whether standard output is one: the view is shown there, unless --plain or -o.
func (o *replayOptions) validate(fs *pflag.FlagSet, view *viewOptions, terminal bool) (ui.ColorMode, error) {
	if o.output != "" && o.output != "json" && o.output != "yaml" {
		return 0, fmt.Errorf("-o %q: want json or yaml", o.output)
	}
	var err error
	if o.speed, err = parseSpeed(o.speedArg); err != nil {
		return 0, err
	}
	if o.idleLimit < 0 {
		return 0, errors.New("--idle-limit cannot be negative (0 plays every pause as recorded)")
	}
	o.paced = fs.Changed("speed")
	if err := o.refuseUnused(fs, view); err != nil {
		return 0, err
	}
	if err := view.readLanes(); err != nil {
		return 0, err
	}
	return view.colorMode(terminal && !view.plain && o.output == "")
}

// refuseUnused is an error for a flag that would change nothing: -o prints the timeline at
// once, so it is not played (--speed, --idle-limit, --plain); --pretty is for -o json only.
func (o *replayOptions) refuseUnused(fs *pflag.FlagSet, view *viewOptions) error {
	switch {
	case o.output != "json" && fs.Changed("pretty"):
		return errors.New("--pretty indents -o json: give -o json, or drop --pretty")
	case o.output == "":
		return nil
	}
	for _, name := range []string{"speed", "idle-limit", "plain"} {
		if fs.Changed(name) {
			return fmt.Errorf("--%s is for playing the recording; -o %s prints its final timeline at once", name, o.output)
		}
	}
	return nil
}

// parseSpeed reads a playing speed: a finite factor from minSpeed to maxSpeed (1, 2.5, 10x,
// 10×) or max (play.SpeedMax).
func parseSpeed(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "max" {
		return play.SpeedMax, nil
	}
	t = strings.TrimSuffix(strings.TrimSuffix(t, "x"), "×")
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || !(f >= minSpeed && f <= maxSpeed) { // NaN fails both
		return 0, fmt.Errorf("--speed %q: want a factor from %g to %g, such as 1, 2 or 10, or max", s, minSpeed, float64(maxSpeed))
	}
	return f, nil
}
