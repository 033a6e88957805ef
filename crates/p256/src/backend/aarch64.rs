//! placeholder
#![allow(unsafe_code)]
