package snapshot

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"

	"github.com/org/pipeline-action/engine/model"
)

// Same reports whether a and b hold the same state, field by field: what Result
// compares to tell whether an event changed anything, without encoding either. Empty and
// absent lists and maps are the same (the state file omits both), instants are compared
// as instants, and values of contexts, variables and outputs as JSON values.
// TestSameStateSeesEveryField holds it to every field.
func Same(a, b *model.State) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Version == b.Version && a.Subject == b.Subject && a.Seq == b.Seq &&
		sameSlice(a.Runs, b.Runs, sameRun) &&
		slices.Equal(a.Ignored, b.Ignored) &&
		sameSlice(a.Past, b.Past, samePast) && maps.EqualFunc(a.Marks, b.Marks, sameMark) &&
		slices.Equal(a.Disowned, b.Disowned) &&
		a.CommandsSeen == b.CommandsSeen && a.CommentsRead == b.CommentsRead && a.StateComment == b.StateComment &&
		slices.Equal(a.Refused, b.Refused) &&
		slices.Equal(a.Retested, b.Retested) &&
		sameValues(a.Shared, b.Shared) && maps.Equal(a.Enabled, b.Enabled) &&
		slices.Equal(a.Followers, b.Followers)
}

func sameSlice[T any](a, b []T, same func(x, y T) bool) bool {
	return slices.EqualFunc(a, b, same)
}

func sameMark(a, b model.RunMark) bool {
	return a.Number == b.Number && a.At.Equal(b.At) && a.Key == b.Key
}

func samePast(a, b model.PastRun) bool {
	return a.ID == b.ID && a.Pipeline == b.Pipeline && a.Status == b.Status && a.TriggerKey == b.TriggerKey &&
		a.TriggerAt.Equal(b.TriggerAt) && a.StartedAt.Equal(b.StartedAt) && a.Parent == b.Parent
}

func sameRun(a, b *model.Run) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ID == b.ID && a.Pipeline == b.Pipeline && a.ConfigOID == b.ConfigOID && a.Subject == b.Subject &&
		a.Status == b.Status && a.Stage == b.Stage &&
		maps.EqualFunc(a.Stages, b.Stages, sameStageRun) &&
		a.TriggerKey == b.TriggerKey && a.TriggerAt.Equal(b.TriggerAt) &&
		a.StartedAt.Equal(b.StartedAt) && a.UpdatedAt.Equal(b.UpdatedAt) && a.Message == b.Message &&
		a.VerifiedSHA == b.VerifiedSHA && a.VerifiedBy == b.VerifiedBy &&
		a.Head == b.Head && a.HeadSince.Equal(b.HeadSince) &&
		sameSlice(a.History, b.History, sameTransition) && a.HistoryCut == b.HistoryCut &&
		slices.Equal(a.Applied, b.Applied) &&
		sameSlice(a.Intents, b.Intents, sameIntent) &&
		sameValues(a.Context, b.Context) &&
		maps.Equal(a.Iterations, b.Iterations) &&
		sameValues(a.Variables, b.Variables) &&
		a.Parent == b.Parent && a.ParentAttempt == b.ParentAttempt && a.Depth == b.Depth
}

func sameTransition(a, b model.Transition) bool {
	return a.At.Equal(b.At) && a.Actor == b.Actor && a.From == b.From && a.To == b.To && a.Why == b.Why && a.Kind == b.Kind
}

func sameIntent(a, b model.Intent) bool {
	return a.Key == b.Key && a.Kind == b.Kind && a.Stage == b.Stage && a.Attempt == b.Attempt && a.SHA == b.SHA &&
		a.Try == b.Try && a.At.Equal(b.At) && a.Until.Equal(b.Until) && a.Dispatch == b.Dispatch && a.Target == b.Target
}

func sameStageRun(a, b *model.StageRun) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Status == b.Status && sameSlice(a.Deadlines, b.Deadlines, sameDeadline) &&
		a.Attempt == b.Attempt && a.Tries == b.Tries && a.EnteredAt.Equal(b.EnteredAt) &&
		slices.Equal(a.Results, b.Results) && a.Message == b.Message &&
		sameSlice(a.Approvals, b.Approvals, sameApproval) && a.Reminders == b.Reminders &&
		samePtr(a.Skipped, b.Skipped, sameApproval) &&
		sameValues(a.Outputs, b.Outputs) && samePtr(a.OutputsFile, b.OutputsFile, sameOutputsFile) &&
		a.Verdict == b.Verdict && a.Errors == b.Errors && a.HeadSHA == b.HeadSHA && a.Queued == b.Queued &&
		a.Nonce == b.Nonce && a.AgentRun == b.AgentRun && a.ConditionChecked == b.ConditionChecked &&
		samePtr(a.Stale, b.Stale, sameStale) &&
		a.Parent == b.Parent && a.ParentAttempt == b.ParentAttempt && a.Child == b.Child
}

func samePtr[T any](a, b *T, same func(x, y T) bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return same(*a, *b)
}

func sameDeadline(a, b model.Deadline) bool {
	return a.Kind == b.Kind && a.At.Equal(b.At) && a.N == b.N && a.Branch == b.Branch
}

func sameApproval(a, b model.Approval) bool {
	return a.Login == b.Login && a.SHA == b.SHA && a.At.Equal(b.At) && a.Comment == b.Comment
}

func sameOutputsFile(a, b model.OutputsFile) bool {
	return a.Path == b.Path && a.Digest == b.Digest && a.Bytes == b.Bytes && slices.Equal(a.Keys, b.Keys)
}

func sameStale(a, b model.Stale) bool {
	return a.At.Equal(b.At) && a.Why == b.Why && a.Verdict == b.Verdict && a.SHA == b.SHA && slices.Equal(a.Reviews, b.Reviews)
}

// sameValues compares two JSON objects held as maps.
func sameValues(a, b map[string]any) bool {
	return maps.EqualFunc(a, b, sameValue)
}

// sameValue compares two JSON values: numbers by value, whatever Go type holds them.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case float64:
		if y, ok := b.(float64); ok {
			return x == y
		}
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && sameValues(x, y)
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, sameValue)
	}
	return sameJSON(a, b)
}

// sameJSON compares two values by their JSON: what is persisted of them.
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
