//! The `agon` engine binary (placeholder while the engine is written).
fn main() {}
