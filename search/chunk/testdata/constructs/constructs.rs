//! Crate docs.
#![allow(dead_code)]
use std::fmt;

/// A point.
/** More. */
#[derive(Debug, Clone)]
pub struct Point<'a, T: Copy = u8> {
    x: T,
    name: &'a str,
}

/* outer /* nested } */ still comment { */
pub(crate) enum Shape { Circle { r: f64 }, Square(f64) }

pub trait Area: fmt::Debug {
    /// Its area.
    fn area(&self) -> f64;
    const SIDES: u32;
    type Unit;
    fn describe(&self) -> String { format!("{:?}", self) }
}

impl<'a, T: Copy + fmt::Debug> fmt::Display for Point<'a, T> where T: Default {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = '}';
        let q = '\'';
        let s = r#"fn fake() { "#;
        let b = b"{";
        let l: &'static str = "}";
        'outer: loop { break 'outer; }
        fn inner() {}
        write!(f, "{}", self.name)
    }
}

impl<T> Area for Box<[T]> {}
unsafe impl Send for Shape {}

macro_rules! square {
    ($x:expr) => { $x * $x };
}

pub const MAX: usize = { 1 + 2 };
static mut COUNTER: u32 = 0;
pub type Result<T> = std::result::Result<T, Error>;
extern "C" {
    fn abs(x: i32) -> i32;
}
pub async unsafe fn r#async() {}
mod inner {
    pub fn nested() {}
}
mod other;

#[cfg(test)]
mod tests {
    #[test]
    fn it_works() { assert_eq!(square!(2), 4); }
}
