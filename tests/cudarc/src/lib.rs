//! Nothing of its own: the tests are the crate (`tests/`).
