package store

// Level is a severity.
type Level int8

// CapitalString names the level in capitals.
func (l Level) CapitalString() string {
	if l > 0 {
		return "HIGH"
	}
	return "LOW"
}

var (
	levelNames = map[Level]string{0: "low", 1: "high"}
	capitals   = map[Level]string{}
)

func init() {
	for level := range levelNames {
		capitals[level] = level.CapitalString()
	}
}
