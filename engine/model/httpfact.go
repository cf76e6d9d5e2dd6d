package model

// Answer is what a GET to a check's url gave: its status and its body decoded as JSON
// (nil when it was empty or not JSON), or Err, why no answer came (the url was refused,
// the host did not answer in time …).
type HTTPAnswer struct {
	Status int
	JSON   any
	Err    string
}

// Answers are the answers by url, as the check writes it.
type HTTPAnswers map[string]HTTPAnswer

// Outputs is the value an `expect` expression reads as `outputs`.
func (a HTTPAnswer) Outputs() map[string]any {
	return map[string]any{"status": a.Status, "json": a.JSON}
}
