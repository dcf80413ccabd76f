//! What streams run, over `device/` and `code/`: operations (`ops.rs`: copies, memsets, host
//! functions, kernel launches), their issue on a stream and graphs and stream capture
//! (`graph.rs`, one registry for both APIs), and a kernel launch issued on a stream
//! (`launches.rs`); streams' attributes (`stream_attributes.rs`) and devices' default memory
//! pools (`mem_pools.rs`). It imports no API face: both faces build their operations and issue them
//! here, and a graph's replay runs its kernels through `code::launch`.

pub mod graph;
pub mod launches;
pub mod mem_pools;
pub mod ops;
pub mod stream_attributes;
