package ghfake

import (
	"strconv"
	"strings"

	"github.com/shurcooL/githubv4"
)

// The adapter's queries, copied from cmd/internal/ghapi/facts.go with an "adapter" prefix (ghfake
// does not import ghapi); TestAdapterQueriesCopied keeps the copies equal to the originals.

type adapterActor struct {
	Login    string
	Typename string `graphql:"__typename"`
}

type adapterCheckContext struct {
	Typename string `graphql:"__typename"`
	CheckRun struct {
		Name       string
		Status     string
		Conclusion string
		// The suite tells a re-run of the same check (same app, same suite) from another
		// check of the same name; its workflow run names the Actions workflow.
		CheckSuite struct {
			Id          string
			App         *struct{ Id string }
			WorkflowRun *struct {
				Workflow struct{ Name string }
			}
		}
	} `graphql:"... on CheckRun"`
	StatusContext struct {
		Context string
		State   string
	} `graphql:"... on StatusContext"`
}

type adapterPrFields struct {
	Number            int
	Title             string
	Body              string // closing keywords, where GitHub links no issue
	State             string
	IsDraft           bool
	Merged            bool
	MergedBy          *adapterActor
	Mergeable         string
	MergeStateStatus  string
	Author            *adapterActor
	BaseRefName       string
	HeadRefName       string
	HeadRefOid        string
	IsCrossRepository bool
	HeadRepository    *struct{ NameWithOwner string } // null once a fork is deleted
	Labels            struct {
		PageInfo adapterPageForward
		Nodes    []adapterLabelNode
	} `graphql:"labels(first: 100)"`
	Reviews struct {
		PageInfo adapterPageBackward
		Nodes    []adapterReviewNode
	} `graphql:"reviews(last: 100)"`
	Commits struct {
		Nodes []struct {
			Commit struct {
				Oid               string
				StatusCheckRollup *struct {
					State    string
					Contexts struct {
						PageInfo adapterPageForward
						Nodes    []adapterCheckContext
					} `graphql:"contexts(first: 100)"`
				}
			}
		}
	} `graphql:"commits(last: 1)"`
	Contributors adapterContributorsConn `graphql:"contributors: commits(last: 100)"`
	Comments     struct {
		PageInfo adapterPageForward
		Nodes    []adapterCommentNode
	} `graphql:"comments(first: 100)"`
	Recent struct {
		PageInfo adapterPageBackward
		Nodes    []adapterCommentNode
	} `graphql:"recent: comments(last: 100)"`
	CreatedAt     githubv4.DateTime
	TimelineItems struct {
		PageInfo adapterPageBackward // older pages: pages_more.go
		Nodes    []adapterTimelineNode
	} `graphql:"timelineItems(last: 100, itemTypes: [LABELED_EVENT, UNLABELED_EVENT, REOPENED_EVENT, READY_FOR_REVIEW_EVENT, CONVERT_TO_DRAFT_EVENT, BASE_REF_CHANGED_EVENT, REVIEW_DISMISSED_EVENT])"`
	// The issues it closes when merged (close_issue's linked_issue).
	ClosingIssuesReferences *adapterClosingRefs `graphql:"closingIssuesReferences(first: 10)"` // more: pages_more.go
}

type adapterClosingRefs struct {
	PageInfo adapterPageForward
	Nodes    []struct {
		Number     int
		Repository struct{ NameWithOwner string }
	}
}

type adapterTimelineNode struct {
	Typename     string `graphql:"__typename"`
	LabeledEvent struct {
		CreatedAt githubv4.DateTime
		Label     adapterLabelNode
		Actor     *adapterActor
	} `graphql:"... on LabeledEvent"`
	UnlabeledEvent struct {
		CreatedAt githubv4.DateTime
		Label     adapterLabelNode
	} `graphql:"... on UnlabeledEvent"`
	ReopenedEvent struct {
		CreatedAt githubv4.DateTime
	} `graphql:"... on ReopenedEvent"`
	ReadyForReviewEvent struct {
		CreatedAt githubv4.DateTime
	} `graphql:"... on ReadyForReviewEvent"`
	ConvertToDraftEvent struct {
		CreatedAt githubv4.DateTime
	} `graphql:"... on ConvertToDraftEvent"`
	BaseRefChangedEvent struct {
		CreatedAt      githubv4.DateTime
		CurrentRefName string
	} `graphql:"... on BaseRefChangedEvent"`
	ReviewDismissedEvent struct {
		CreatedAt githubv4.DateTime
		Actor     *adapterActor
		Review    *struct{ Author *adapterActor }
	} `graphql:"... on ReviewDismissedEvent"`
}

type adapterPageForward struct {
	HasNextPage bool
	EndCursor   string
}

type adapterContributorsConn struct {
	PageInfo adapterPageBackward
	Nodes    []adapterContributorNode
}

type adapterContributorNode struct {
	Commit struct {
		Author    *adapterGitActorNode
		Committer *adapterGitActorNode
		Parents   struct{ TotalCount int } `graphql:"parents(first: 1)"`
		Signature *adapterSignatureNode
	}
}

type adapterSignatureNode struct {
	IsValid           bool
	WasSignedByGitHub bool
}

type adapterGitActorNode struct {
	User *struct{ Login string }
}

type adapterPageBackward struct {
	HasPreviousPage bool
	StartCursor     string
}

type adapterLabelNode struct{ Name string }

type adapterReviewNode struct {
	Author                    *adapterActor
	State                     string
	Body                      string
	Editor                    *adapterActor // who last edited the body (anyone with write access may)
	LastEditedAt              *githubv4.DateTime
	IncludesCreatedEdit       bool
	SubmittedAt               *githubv4.DateTime
	Commit                    *struct{ Oid string }
	AuthorCanPushToRepository bool
}

type adapterCommentNode struct {
	Id                  string
	FullDatabaseId      adapterBigInt
	Author              *adapterActor
	ViewerDidAuthor     bool
	Editor              *adapterActor
	LastEditedAt        *githubv4.DateTime
	IncludesCreatedEdit bool
	Body                string
	CreatedAt           githubv4.DateTime
}

// adapterBigInt stands for ghapi's bigInt (a BigInt, served as a decimal string).
type adapterBigInt int64

func (b *adapterBigInt) UnmarshalJSON(data []byte) error {
	n, err := strconv.ParseInt(strings.Trim(string(data), `"`), 10, 64)
	*b = adapterBigInt(n)
	return err
}

type adapterStateCommit struct {
	Oid           string
	CommittedDate githubv4.DateTime
	Author        *struct {
		Name  string
		Email string
		User  *struct{ Login string }
	}
	Signature *struct {
		IsValid           bool
		WasSignedByGitHub bool
	}
}

type adapterStateFile struct {
	Object *struct {
		Blob adapterBlobFields `graphql:"... on Blob"`
	}
}

type adapterStateRef struct {
	Target *struct {
		Oid    string
		Commit struct {
			File     *adapterStateFile                    `graphql:"stateFile: file(path: $stateFile)"`
			FileLog  struct{ Nodes []adapterStateCommit } `graphql:"stateFileLog: history(first: 1, path: $stateFile)"`
			Index    *adapterStateFile                    `graphql:"stateIndex: file(path: $stateIndex)"`
			Shard    *adapterStateFile                    `graphql:"stateShard: file(path: $stateShard)"`
			ShardLog struct{ Nodes []adapterStateCommit } `graphql:"stateShardLog: history(first: 1, path: $stateShard)"`
			Outputs  *adapterStateDir                     `graphql:"stateOutputs: file(path: $stateOutputs)"`
			Defs     *adapterStateFile                    `graphql:"stateDefs: file(path: \"definitions.json\")"`
			DefsLog  struct{ Nodes []adapterStateCommit } `graphql:"stateDefsLog: history(first: 1, path: \"definitions.json\")"`
		} `graphql:"... on Commit"`
	}
}

type adapterStateDir struct {
	Object *struct {
		Tree struct {
			Entries []adapterTreeEntryNode
		} `graphql:"... on Tree"`
	}
}

// adapterIndexQuery is the shape of the query ghapi's OpenRuns builds by reflection
// , with the first of its shards.
type adapterIndexQuery adapterInRepo[struct {
	StateRef *struct {
		Target *struct {
			Oid    string
			Commit struct {
				Index     *adapterStateFile                    `graphql:"stateIndex: file(path: $stateIndex)"`
				IndexLog  struct{ Nodes []adapterStateCommit } `graphql:"stateIndexLog: history(first: 1, path: $stateIndex)"`
				Shard0    *adapterStateFile                    `graphql:"shard0: file(path: $shard0)"`
				Shard0Log struct{ Nodes []adapterStateCommit } `graphql:"shard0Log: history(first: 1, path: $shard0)"`
			} `graphql:"... on Commit"`
		}
	} `graphql:"stateRef: ref(qualifiedName: $stateRef)"`
}]

type adapterFactsQuery struct {
	Viewer     adapterActor
	Repository struct {
		Id               string
		DefaultBranchRef *struct {
			Name   string
			Target *struct {
				Oid    string
				Commit struct {
					ConfigLog struct {
						Nodes []struct{ CommittedDate githubv4.DateTime }
					} `graphql:"configLog: history(first: 1, path: $configPath)"`
					ConfigDirLog struct {
						Nodes []struct{ CommittedDate githubv4.DateTime }
					} `graphql:"configDirLog: history(first: 1, path: $configDirPath)"`
				} `graphql:"... on Commit"`
			}
		}
		StateRef *adapterStateRef `graphql:"stateRef: ref(qualifiedName: $stateRef)"`
		Config   *struct {
			Blob adapterBlobFields `graphql:"... on Blob"`
		} `graphql:"config: object(expression: $configExpr)"`
		ConfigDir *struct {
			Tree adapterTreeFields `graphql:"... on Tree"`
		} `graphql:"configDir: object(expression: $configDirExpr)"`
		PullRequest *adapterPrFields `graphql:"pullRequest(number: $number)"`
	} `graphql:"repository(owner: $owner, name: $name)"`
}

type adapterBlobFields struct {
	Oid         string
	Text        *string
	IsTruncated bool
}

type adapterTreeEntryNode struct {
	Name   string
	Type   string
	Mode   int
	Object *struct {
		Blob adapterBlobFields `graphql:"... on Blob"`
	}
}

type adapterTreeFields struct {
	Oid     string
	Entries []adapterTreeEntryNode
}

type adapterFileVersions struct {
	Nodes []struct {
		File *struct{ Oid string } `graphql:"file(path: $filePath)"`
	}
}

type adapterDirVersions struct {
	Nodes []struct {
		File *struct{ Oid string } `graphql:"file(path: $dirPath)"`
	}
}

type adapterConfigByIDQuery adapterInRepo[struct {
	File *struct {
		Blob adapterBlobFields `graphql:"... on Blob"`
	} `graphql:"file: object(oid: $file)"`
	Dir *struct {
		Tree adapterTreeFields `graphql:"... on Tree"`
	} `graphql:"dir: object(oid: $dir)"`
	DefaultBranchRef *struct {
		Target struct {
			Commit struct {
				FileVersions adapterFileVersions `graphql:"fileVersions: history(first: 100, path: $filePath)"`
				DirVersions  adapterDirVersions  `graphql:"dirVersions: history(first: 100, path: $dirPath)"`
			} `graphql:"... on Commit"`
		}
	}
}]

type adapterCommitPRsQuery adapterInRepo[struct {
	Object *struct {
		Commit struct {
			AssociatedPullRequests struct {
				Nodes []struct {
					Number     int
					State      string
					HeadRefOid string
				}
			} `graphql:"associatedPullRequests(first: 10)"`
		} `graphql:"... on Commit"`
	} `graphql:"object(oid: $sha)"`
	PullRequests struct {
		Nodes []struct {
			Number            int
			HeadRefName       string
			HeadRefOid        string
			IsCrossRepository bool
			HeadRepository    *struct {
				NameWithOwner string
			}
		}
	} `graphql:"pullRequests(states: OPEN, headRefName: $branch, first: $first, orderBy: {field: UPDATED_AT, direction: DESC})"`
}]

type adapterInRepo[T any] struct {
	Repository T `graphql:"repository(owner: $owner, name: $name)"`
}
