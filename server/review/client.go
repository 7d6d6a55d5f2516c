package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// Link is a review link held open: it stays valid until Close, until the
// request's context ends, or until the server ends it (Wait says why).
type Link struct {
	GrantLine
	body io.ReadCloser
	dec  *json.Decoder
}

// RequestLink asks the server at base (http://127.0.0.1:PORT) for a review
// link, presenting key. The returned Link holds the request open.
func RequestLink(ctx context.Context, base, key string) (*Link, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+GrantPath, nil)
	if err != nil {
		return nil, fmt.Errorf("ask for a review link: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("ask the agentos server for a review link: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		var e struct {
			Error string `json:"error"`
		}
		json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&e)
		if e.Error == "" {
			e.Error = resp.Status
		}
		return nil, fmt.Errorf("the agentos server refused a review link: %s", e.Error)
	}
	l := &Link{body: resp.Body, dec: json.NewDecoder(resp.Body)}
	if err := l.dec.Decode(&l.GrantLine); err != nil || l.URL == "" {
		resp.Body.Close()
		return nil, errors.New("the agentos server answered the review link request with something else; is it an older agentos?")
	}
	return l, nil
}

// Wait blocks until the link ends and says why: GrantExpired, or "" when
// the server closed it (it is stopping) or the context ended.
func (l *Link) Wait() string {
	var line GrantLine
	for l.dec.Decode(&line) == nil {
		if line.Ended != "" {
			return line.Ended
		}
	}
	return ""
}

// Close ends the link: the server revokes its token.
func (l *Link) Close() error { return l.body.Close() }
