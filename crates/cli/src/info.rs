//! stub
pub fn run() -> Result<(), String> {
    Err("todo".into())
}
