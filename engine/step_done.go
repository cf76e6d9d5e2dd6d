package engine

import (
	"github.com/org/pipeline-action/engine/model"

	"github.com/org/pipeline-action/engine/internal/doneby"
)

// Nothing acts on a subject that is done. The runs after one that acts wait for its
// effects (advancePass); once its merge of the subject pull request (or close of the
// subject issue) is performed, they would go on in the rounds after it on a subject that
// is done. They are cancelled instead, before they are stepped. The event remembers the
// run that made it done (Result.DoneBy, passed on in Input.DoneBy): its own stages after
// the merge still run, and so do its sub-pipelines'. Runs of a pipeline that starts on the
// closing itself run on a closed subject by design. On a later event, closedSubject ends
// what is still open on a subject that is not.

// RootRun is the id of the top-level run that run id descends from in st (id itself when
// it is not a sub-pipeline's run, or is not in st).
func RootRun(st *model.State, id string) string {
	if st == nil {
		return id
	}
	return doneby.Root(st.Runs, id)
}
