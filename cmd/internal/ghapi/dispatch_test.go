package ghapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/org/pipeline-action/engine/model"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/lang"
)

const agentWorkflow = `on:
  workflow_dispatch:
    inputs: {run: {}, stage: {}, attempt: {}, subject: {}, action: {}, context: {}, nonce: {}}
jobs: {}
`

func dispatchEffect(kind string) model.Effect {
	return model.Effect{Key: "p/7/1/review/1/dispatch", Kind: model.EffectDispatch, Number: 7, Agent: "reviewer", Dispatch: kind,
		Workflow: "agent.yml", Ref: "main", EventType: "review",
		Inputs: map[string]string{"run": "p/7/1", "stage": "review", "attempt": "1", "subject": repoName + "#7", "action": "review", "context": "{}", "nonce": "1-00ff00ff00ff00ff"},
		Body:   "@bot review", Labels: []string{"agent:review"}, Assignees: []string{"alice"}}
}

func TestPerformDispatchByKind(t *testing.T) {
	cases := []struct {
		kind  string
		stats map[string]int
		check func(t *testing.T, fake *ghfake.Server)
	}{
		{lang.DispatchWorkflow, map[string]int{"actions/create-workflow-dispatch": 1}, func(t *testing.T, fake *ghfake.Server) {
			d := fake.Dispatches()
			require.Len(t, d, 1)
			assert.Equal(t, "agent.yml", d[0].Workflow)
			assert.Equal(t, "main", d[0].Ref)
			assert.Equal(t, "p/7/1", d[0].Inputs["run"])
			assert.Equal(t, "1", d[0].Inputs["attempt"])
		}},
		{lang.DispatchRepositoryDispatch, map[string]int{"repos/create-dispatch-event": 1}, func(t *testing.T, fake *ghfake.Server) {
			d := fake.Dispatches()
			require.Len(t, d, 1)
			assert.Equal(t, "review", d[0].EventType)
			assert.Equal(t, "review", d[0].Inputs["stage"], "the same data as client_payload")
		}},
		{lang.DispatchComment, map[string]int{"issues/create-comment": 1}, func(t *testing.T, fake *ghfake.Server) {
			cs := fake.Comments(repoName, 7)
			require.Len(t, cs, 1)
			assert.Contains(t, cs[0].Body, "@bot review")
			assert.Contains(t, cs[0].Body, model.EffectMarker("p/7/1/review/1/dispatch"))
		}},
		{lang.DispatchLabel, map[string]int{"issues/add-labels": 1}, func(t *testing.T, fake *ghfake.Server) {
			assert.Contains(t, fake.PR(repoName, 7).Labels, "agent:review")
		}},
		{lang.DispatchAssign, map[string]int{"issues/add-assignees": 1}, func(t *testing.T, fake *ghfake.Server) {
			assert.Equal(t, []string{"alice"}, fake.Assignees(repoName, 7))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.kind, func(t *testing.T) {
			fake, c := setup(t)
			fake.AddUser("alice", "write")
			fake.SetFile(repoName, "main", ".github/workflows/agent.yml", agentWorkflow)
			openPR(fake)
			fake.ResetStats()
			o := c.Perform(t.Context(), dispatchEffect(tc.kind))
			want := model.Outcome{Key: "p/7/1/review/1/dispatch"}
			if tc.kind == lang.DispatchWorkflow {
				// GitHub, asked, tells the workflow run the dispatch started.
				require.Len(t, fake.Dispatches(), 1)
				want.WorkflowRun = fake.Dispatches()[0].RunID
				assert.NotZero(t, want.WorkflowRun)
			}
			assert.Equal(t, want, o)
			assert.Equal(t, tc.stats, fake.Stats())
			tc.check(t, fake)
			assertDocumented(t, fake)
		})
	}
}

func TestPerformDispatchRefusals(t *testing.T) {
	fake, c := setup(t)
	openPR(fake)
	o := c.Perform(t.Context(), dispatchEffect(lang.DispatchWorkflow))
	assert.True(t, o.Permanent, "no such workflow: trying again cannot help")
	assert.Contains(t, o.Err, "dispatching agent reviewer refused (404)")

	fake.SetFile(repoName, "main", ".github/workflows/agent.yml", "on:\n  workflow_dispatch:\n    inputs: {run: {}}\njobs: {}\n")
	o = c.Perform(t.Context(), dispatchEffect(lang.DispatchWorkflow))
	assert.True(t, o.Permanent)
	assert.Contains(t, o.Err, "Unexpected inputs provided")

	o = c.Perform(t.Context(), dispatchEffect(lang.DispatchAssign))
	assert.NotEmpty(t, o.Err, "alice has no access: GitHub leaves her out, and that is an error")
	assert.True(t, o.Permanent)

	fake.FailNext("repos/create-dispatch-event", 502, "Server Error")
	o = c.Perform(t.Context(), dispatchEffect(lang.DispatchRepositoryDispatch))
	assert.False(t, o.Permanent, "a 5xx may pass on a later event")
	assert.Empty(t, fake.Dispatches())
}

// A GitHub that predates return_run_details answers 204 with no body: the dispatch is done,
// and no run id is known. What is sent asks for the run's details.
func TestDispatchWorkflowWithoutRunDetails(t *testing.T) {
	var mu sync.Mutex
	var body map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "POST /api/v3/repos/acme/widgets/actions/workflows/agent.yml/dispatches", r.Method+" "+r.RequestURI)
		mu.Lock()
		defer mu.Unlock()
		assert.NoError(t, json.NewDecoder(r.Body).Decode(&body))
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	c, err := ghapi.New(ghapi.Options{Token: "t", RESTURL: srv.URL + "/api/v3", GraphQLURL: srv.URL + "/api/graphql", Repository: repoName})
	require.NoError(t, err)
	o := c.Perform(t.Context(), dispatchEffect(lang.DispatchWorkflow))
	assert.Equal(t, model.Outcome{Key: "p/7/1/review/1/dispatch"}, o, "done, its run not known")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, true, body["return_run_details"])
	assert.Equal(t, "main", body["ref"])
	assert.Equal(t, "1-00ff00ff00ff00ff", body["inputs"].(map[string]any)["nonce"])
}
