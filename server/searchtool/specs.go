package searchtool

import (
	"context"
	"fmt"

	"github.com/agentos-dev/agentos/search/codegraph"
)

// The call graph as living specs ask it: the workflow engine records which
// symbols a finished spec's tests reach, and checks which of them a change
// touched, on the same graph the graph and impact actions answer from.

// CodeGraph returns the code index's call graph once the index is open,
// waiting for it as a graph question does; an error says why there is none.
func (s *Service) CodeGraph(ctx context.Context) (*codegraph.Graph, error) {
	h := s.index(Code)
	st := waitOpened(ctx, h)
	if !searchable(st.State) || h.ix == nil {
		return nil, fmt.Errorf("the code index is %s: %s", st.State, st.Detail)
	}
	return h.ix.Graph(), nil
}

// CodeGraph returns the opened code index's call graph.
func (l *Local) CodeGraph() (*codegraph.Graph, error) {
	li, err := l.index(Code)
	if err != nil {
		return nil, err
	}
	return li.ix.Graph(), nil
}
