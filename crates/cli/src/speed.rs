//! stub
pub fn run(_: &crate::SpeedArgs) -> Result<(), String> {
    Err("todo".into())
}
