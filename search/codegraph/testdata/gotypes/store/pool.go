package store

// Pool hands out buffers.
type Pool struct{ size int }

// NewPool returns an empty pool.
func NewPool() Pool { return Pool{} }

// Get returns a buffer.
func (p Pool) Get() *Buffer { return &Buffer{b: make([]byte, 0, p.size)} }

// Buffer holds bytes.
type Buffer struct{ b []byte }

// AppendByte appends a byte.
func (b *Buffer) AppendByte(c byte) { b.b = append(b.b, c) }

// Len returns the buffer's length.
func (b *Buffer) Len() int { return len(b.b) }

var (
	_pool = NewPool()
	// GetBuffer is the shared pool's Get: a method value.
	GetBuffer = _pool.Get
)
