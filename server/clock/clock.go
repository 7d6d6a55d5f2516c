// Package clock owns the current_date tool: agents have no reliable clock of
// their own, and spec folders are named by date.
package clock

import (
	"context"
	"time"
	_ "time/tzdata" // time zones by name on machines without a zoneinfo database

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/server/toolkit"
)

type input struct {
	Timezone string `json:"timezone"`
}

// Output is the result of current_date.
type Output struct {
	ISODate     string `json:"iso_date" jsonschema:"YYYY-MM-DD"`
	ISODateTime string `json:"iso_datetime" jsonschema:"RFC 3339 date and time with offset"`
	Weekday     string `json:"weekday"`
	Month       string `json:"month"`
	Year        int    `json:"year"`
	Timezone    string `json:"timezone"`
	UTCOffset   string `json:"utc_offset" jsonschema:"e.g. +02:00"`
	Unix        int64  `json:"unix" jsonschema:"Seconds since 1970-01-01 UTC"`
	SpecPrefix  string `json:"spec_prefix" jsonschema:"Prefix of a spec folder name: YYYY-MM-DD-"`
}

// New returns the current_date tool; now is the clock (time.Now outside tests).
func New(now func() time.Time) toolkit.Tool {
	def := mcp.NewTool("current_date",
		mcp.WithDescription("Today's date and the current time on the server's machine, plus the YYYY-MM-DD- prefix used for spec folders. Use it instead of guessing the date."),
		mcp.WithString("timezone", mcp.Description("IANA time zone such as Europe/Paris or UTC; default: the machine's local zone")),
		mcp.WithOutputSchema[Output](),
		toolkit.Annotations("Current date", true, false, true, false),
	)
	return toolkit.Tool{Def: def, Handler: toolkit.Handler(func(_ context.Context, _ mcp.CallToolRequest, in input) (Output, error) {
		t := now()
		if in.Timezone != "" {
			loc, err := time.LoadLocation(in.Timezone)
			if err != nil {
				return Output{}, toolkit.Validation("timezone", "unknown time zone %q; use an IANA name such as UTC or America/New_York", in.Timezone)
			}
			t = t.In(loc)
		}
		return describe(t), nil
	})}
}

func describe(t time.Time) Output {
	date := t.Format(time.DateOnly)
	zone, _ := t.Zone()
	if name := t.Location().String(); name != "Local" {
		zone = name
	}
	return Output{
		ISODate:     date,
		ISODateTime: t.Format(time.RFC3339),
		Weekday:     t.Weekday().String(),
		Month:       t.Month().String(),
		Year:        t.Year(),
		Timezone:    zone,
		UTCOffset:   t.Format("-07:00"),
		Unix:        t.Unix(),
		SpecPrefix:  date + "-",
	}
}
