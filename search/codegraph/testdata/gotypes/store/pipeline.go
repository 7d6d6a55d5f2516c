package store

// Future is a result to wait for.
type Future interface {
	Index() uint64
}

// Pipeline hands its results out on a channel.
type Pipeline interface {
	Consumer() <-chan Future
}

type doneFuture struct{ n uint64 }

// Index returns the future's index.
func (f doneFuture) Index() uint64 { return f.n }

// Node applies commands.
type Node struct{ last uint64 }

// Apply returns a future of the command.
func (n *Node) Apply(cmd []byte) Future {
	n.last += uint64(len(cmd))
	return doneFuture{n.last}
}

// Cluster holds nodes.
type Cluster struct {
	Nodes []*Node
}

// NewCluster returns a cluster of n nodes.
func NewCluster(n int) *Cluster {
	c := &Cluster{}
	for range n {
		c.Nodes = append(c.Nodes, &Node{})
	}
	return c
}
