//! Every `CUdevice_attribute` of `cuda.h` by name and number (`build.rs` writes them from the
//! driver stub's generated types): a profile names attributes as `cuda.h` does, the mock
//! answers them by number.

include!(concat!(env!("OUT_DIR"), "/attributes.rs"));
