package gates

import (
	"encoding/json"
	"fmt"
	"time"
)

// checkJSON is Check as JSON, with the timeout written like "20m0s".
type checkJSON struct {
	checkAlias
	Timeout string `json:"timeout,omitempty"`
}

type checkAlias Check

// MarshalJSON writes the check with its timeout as a duration string.
func (c Check) MarshalJSON() ([]byte, error) {
	out := checkJSON{checkAlias: checkAlias(c)}
	out.checkAlias.Timeout = 0
	if c.Timeout != 0 {
		out.Timeout = c.Timeout.String()
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Check) UnmarshalJSON(b []byte) error {
	var in checkJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	out := Check(in.checkAlias)
	out.Timeout = 0
	if in.Timeout != "" {
		d, err := time.ParseDuration(in.Timeout)
		if err != nil {
			return fmt.Errorf("timeout %q is not a duration", in.Timeout)
		}
		out.Timeout = d
	}
	*c = out
	return nil
}
