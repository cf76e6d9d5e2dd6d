package ghapi_test

import (
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/org/pipeline-action/cmd/internal/ghapi"
	"github.com/org/pipeline-action/cmd/internal/ghfake"
	"github.com/org/pipeline-action/engine/lang"
)

// An outcome says whether the request may have been performed (Unknown): not when GitHub
// refused it (a 4xx) or it never left (the connection refused); yes when no answer came in
// time, or a 408 or a 5xx did.
func TestDispatchOutcomeSaysWhetherItMayHaveBeenPerformed(t *testing.T) {
	for _, tc := range []struct {
		name               string
		fault              ghfake.Fault
		unknown, permanent bool
	}{
		{"502", ghfake.Fault{Status: 502, Message: "Bad Gateway"}, true, false},
		{"504", ghfake.Fault{Status: 504, Message: "Gateway Timeout"}, true, false},
		{"500", ghfake.Fault{Status: 500, Message: "Server Error"}, true, false},
		{"408", ghfake.Fault{Status: 408, Message: "Request Timeout"}, true, false},
		{"no answer in time", ghfake.Fault{Timeout: true}, true, false},
		{"422", ghfake.Fault{Status: 422, Message: "Unexpected inputs provided"}, false, true},
		{"404", ghfake.Fault{Status: 404, Message: "Not Found"}, false, true},
		{"409", ghfake.Fault{Status: 409, Message: "Conflict"}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake, _ := setup(t)
			openPR(fake)
			fake.SetFile(repoName, "main", ".github/workflows/agent.yml", agentWorkflow)
			c, _ := limitedClient(t, fake, ghapi.Limits{RequestTimeout: 100 * time.Millisecond, Retries: -1})
			fake.Inject("actions/create-workflow-dispatch", tc.fault)
			o := c.Perform(t.Context(), dispatchEffect(lang.DispatchWorkflow))
			require.NotEmpty(t, o.Err)
			assert.Equal(t, tc.unknown, o.Unknown, o.Err)
			assert.Equal(t, tc.permanent, o.Permanent, o.Err)
		})
	}
	t.Run("connection refused", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := l.Addr().String()
		require.NoError(t, l.Close()) // nothing listens there any more
		c, err := ghapi.New(ghapi.Options{Token: "t", RESTURL: "http://" + addr + "/api/v3", GraphQLURL: "http://" + addr + "/api/graphql", Repository: repoName})
		require.NoError(t, err)
		o := c.Perform(t.Context(), dispatchEffect(lang.DispatchWorkflow))
		require.NotEmpty(t, o.Err)
		assert.False(t, o.Unknown, o.Err)
	})
}

// The runs of a workflow a dispatch may have started are listed with their display
// titles; an assignee is read from the issue.
func TestDispatchLookUps(t *testing.T) {
	fake, c := setup(t)
	openPR(fake)
	fake.SetFile(repoName, "main", ".github/workflows/agent.yml",
		"name: agent\nrun-name: \"agent: run ${{ inputs.run }} stage ${{ inputs.stage }} attempt ${{ inputs.attempt }}\"\n"+agentWorkflow)
	ctx := t.Context()
	require.Empty(t, c.Perform(ctx, dispatchEffect(lang.DispatchWorkflow)).Err)
	runs, complete, err := c.DispatchedRuns(ctx, "agent.yml", time.Now().Add(-time.Hour))
	require.NoError(t, err)
	assert.True(t, complete)
	require.Len(t, runs, 1)
	assert.Equal(t, "agent: run p/7/1 stage review attempt 1", runs[0].Title)
	assert.Equal(t, fake.Dispatches()[0].RunID, runs[0].ID)
	runs, _, err = c.DispatchedRuns(ctx, "agent.yml", time.Now().Add(time.Hour))
	require.NoError(t, err)
	assert.Empty(t, runs, "none created since")

	fake.AddUser("alice", "write")
	ok, err := c.Assigned(ctx, 7, "alice")
	require.NoError(t, err)
	assert.False(t, ok)
	require.Empty(t, c.Perform(ctx, dispatchEffect(lang.DispatchAssign)).Err)
	ok, err = c.Assigned(ctx, 7, "ALICE")
	require.NoError(t, err)
	assert.True(t, ok)
}
