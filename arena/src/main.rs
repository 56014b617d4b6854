//! The Agon arena (placeholder until the arena issue lands).

fn main() {
    println!("arena: not built yet");
}
