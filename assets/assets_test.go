package assets

import (
	"strings"
	"testing"
)

func TestConfigTemplateEmbedded(t *testing.T) {
	data, err := Read(ConfigTemplate)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"code:", "source_paths:", "languages:", "ast:", "port_range:", "auth:", "logging:", "level:"} {
		if !strings.Contains(string(data), key) {
			t.Errorf("template lacks %q", key)
		}
	}
}

func TestReadMissing(t *testing.T) {
	if _, err := Read("config/nope"); err == nil || !strings.HasPrefix(err.Error(), "assets: ") {
		t.Errorf("error = %v", err)
	}
}
