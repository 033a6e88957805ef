//! The one island mechanism and the backend tables.
//!
//! Each token's target features are written once, in [`__features_of!`]: detection checks
//! exactly that list and every island compiled for the token enables exactly that list, so an
//! island cannot enable a feature its token does not prove.

/// The target features of a token, handed to a `__with_list!` step. One arm per token: the
/// only place a feature list is written.
#[doc(hidden)]
#[macro_export]
macro_rules! __features_of {
    (X86Avx2, $($cb:tt)*) => { $crate::__with_list!{["avx2"] $($cb)*} };
    (X86AesClmul, $($cb:tt)*) => { $crate::__with_list!{["aes", "pclmulqdq", "ssse3"] $($cb)*} };
    (X86VaesClmul, $($cb:tt)*) => {
        $crate::__with_list!{["avx2", "vaes", "vpclmulqdq", "aes", "pclmulqdq", "ssse3"] $($cb)*}
    };
    (X86Vaes512, $($cb:tt)*) => {
        $crate::__with_list!{["avx512f", "avx512bw", "avx512vl", "avx2", "vaes", "vpclmulqdq", "aes",
            "pclmulqdq", "ssse3"] $($cb)*}
    };
    (X86ShaNi, $($cb:tt)*) => { $crate::__with_list!{["sha", "sse2", "ssse3", "sse4.1"] $($cb)*} };
    (X86Bmi2Adx, $($cb:tt)*) => { $crate::__with_list!{["bmi2", "adx"] $($cb)*} };
    (X86Bmi, $($cb:tt)*) => { $crate::__with_list!{["bmi1", "bmi2"] $($cb)*} };
    (X86Avx2Bmi, $($cb:tt)*) => { $crate::__with_list!{["avx2", "bmi1", "bmi2"] $($cb)*} };
    (X86Avx512, $($cb:tt)*) => { $crate::__with_list!{["avx2", "avx512f", "avx512vl"] $($cb)*} };
    (X86Avx512Ifma, $($cb:tt)*) => {
        $crate::__with_list!{["avx2", "avx512f", "avx512vl", "avx512ifma", "bmi2", "adx"] $($cb)*}
    };
    (Aarch64Neon, $($cb:tt)*) => { $crate::__with_list!{["neon"] $($cb)*} };
    (Aarch64AesPmull, $($cb:tt)*) => { $crate::__with_list!{["neon", "aes"] $($cb)*} };
    (Aarch64Sha2, $($cb:tt)*) => { $crate::__with_list!{["neon", "sha2"] $($cb)*} };
    (Aarch64Sha3, $($cb:tt)*) => { $crate::__with_list!{["neon", "sha2", "sha3"] $($cb)*} };
    ($other:ident, $($cb:tt)*) => {
        compile_error!(concat!("tessera_cpu: no capability token named `", stringify!($other), "`"));
    };
}

/// The steps that use a feature list: `list` (the list as a `&[&str]`), `apply` (the
/// `#[target_feature]` attributes on items), `one` (on one item).
#[doc(hidden)]
#[macro_export]
macro_rules! __with_list {
    ($l:tt list) => { &$l };
    ($l:tt apply impl $ty:ty { $($i:item)* }) => {
        impl $ty { $( $crate::__with_list!{$l one $i} )* }
    };
    ($l:tt apply $($i:item)*) => { $( $crate::__with_list!{$l one $i} )* };
    ([$($f:literal),*] one $i:item) => { $(#[target_feature(enable = $f)])* $i };
}

/// Compiles every `fn` given for a token's target features: free functions, or the methods of
/// one `impl Type { .. }` block.
///
/// The functions are then `#[target_feature]` functions: callable without `unsafe` only from
/// other functions compiled for the same features (an [`island!`] body, or each other). Use it
/// for the helpers of a backend file; the public entry point of each operation is an
/// [`island!`].
///
/// ```
/// # #[cfg(target_arch = "x86_64")] {
/// tessera_cpu::with_features! { X86Avx2;
///     /// Adds lane-wise (compiled with AVX2).
///     #[inline]
///     fn add(a: &mut [u64; 4], b: &[u64; 4]) {
///         for (x, y) in a.iter_mut().zip(b) {
///             *x = x.wrapping_add(*y);
///         }
///     }
/// }
/// tessera_cpu::island! {
///     /// Safe: the token proves AVX2.
///     fn add_x4(_t: X86Avx2, a: &mut [u64; 4], b: &[u64; 4]) {
///         add(a, b)
///     }
/// }
/// if let Some(t) = tessera_cpu::X86Avx2::detect() {
///     let mut a = [1, 2, 3, 4];
///     add_x4(t, &mut a, &[1; 4]);
///     assert_eq!(a, [2, 3, 4, 5]);
/// }
/// # }
/// ```
#[macro_export]
macro_rules! with_features {
    ($token:ident; $($items:tt)*) => { $crate::__features_of!{$token, apply $($items)*} };
}

/// A target-feature island: a safe function whose first argument is a capability token and
/// whose body is compiled for exactly that token's target features.
///
/// Expands to a safe `#[inline]` wrapper that calls an inner `#[target_feature]` function
/// with the same arguments; the `unsafe` call is justified by the token (it exists only when
/// the CPU has those features) and is written here once, not at each call site. Generic code
/// the body calls should be `#[inline(always)]` so that it is compiled into the island.
/// Const generic parameters (`<const N: usize, ...>`) are supported, led by at most one type
/// parameter with one bound (`<P: Params, const K: usize, ...>`: ML-DSA's parameter sets are
/// types); arguments are `name: Type` pairs (no patterns). See [`with_features!`] for an
/// example.
///
/// ```
/// # #[cfg(target_arch = "aarch64")] {
/// trait Width {
///     const W: usize;
/// }
/// struct Four;
/// impl Width for Four {
///     const W: usize = 4;
/// }
/// tessera_cpu::island! {
///     /// Adds `P::W` to the first `N` lanes (compiled with NEON).
///     fn add_w<P: Width, const N: usize>(_t: Aarch64Neon, a: &mut [u64; N]) {
///         for x in a.iter_mut() {
///             *x += P::W as u64;
///         }
///     }
/// }
/// if let Some(t) = tessera_cpu::Aarch64Neon::detect() {
///     let mut a = [1, 2];
///     add_w::<Four, 2>(t, &mut a);
///     assert_eq!(a, [5, 6]);
/// }
/// # }
/// ```
#[macro_export]
macro_rules! island {
    (
        $(#[$m:meta])*
        $vis:vis fn $name:ident $(<$(const $c:ident : $ct:ty),+ $(,)?>)?
            ($t:ident : $token:ident $(, $a:ident : $at:ty)* $(,)?) $(-> $r:ty)?
        $body:block
    ) => {
        $(#[$m])*
        #[inline]
        $vis fn $name $(<$(const $c: $ct),+>)? ($t: $crate::$token $(, $a: $at)*) $(-> $r)? {
            $crate::__features_of!{$token, apply
                fn island $(<$(const $c: $ct),+>)? ($t: $crate::$token $(, $a: $at)*) $(-> $r)?
                $body
            }
            // SAFETY: `island` enables exactly the target features of the token type (both come
            // from `__features_of!`), and a token value exists only when `detect()` found all of
            // them on this CPU (or a caller of `new_unchecked` vouched for them).
            unsafe { island $(::<$($c),+>)? ($t $(, $a)*) }
        }
    };
    (
        $(#[$m:meta])*
        $vis:vis fn $name:ident <$g:ident : $gb:path $(, const $c:ident : $ct:ty)* $(,)?>
            ($t:ident : $token:ident $(, $a:ident : $at:ty)* $(,)?) $(-> $r:ty)?
        $body:block
    ) => {
        $(#[$m])*
        #[inline]
        $vis fn $name <$g: $gb $(, const $c: $ct)*> ($t: $crate::$token $(, $a: $at)*) $(-> $r)? {
            $crate::__features_of!{$token, apply
                fn island <$g: $gb $(, const $c: $ct)*> ($t: $crate::$token $(, $a: $at)*) $(-> $r)?
                $body
            }
            // SAFETY: `island` enables exactly the target features of the token type (both come
            // from `__features_of!`), and a token value exists only when `detect()` found all of
            // them on this CPU (or a caller of `new_unchecked` vouched for them).
            unsafe { island ::<$g $(, $c)*> ($t $(, $a)*) }
        }
    };
}

/// A crate's table of backends and its one dispatch: generates the `Backend` enum (each
/// variant carrying its capability token), `detect`, `all_available`, `name`, `from_name`,
/// `KNOWN`, the [`BackendSet`](crate::BackendSet) impl that generic test code uses, and one
/// `run` method per operation trait listed after the table.
///
/// Rows are listed best first after `Portable`; `detect()` picks the first row whose token is
/// available, `all_available()` yields `Portable` and then every available row in table order.
///
/// **Dispatch.** A row names its implementation type after `=>` (the crate's unit, field or
/// block-function type for that backend). A line `pub fn run: Op;` after the table names an
/// operation trait of the crate, of this shape:
///
/// ```ignore
/// trait Op {
///     type Out;
///     fn run<U: Unit>(self, t: U::Token) -> Self::Out;
/// }
/// ```
///
/// where `Unit` is the crate's implementation trait, whose `Token` is [`Portable`](crate::Portable)
/// for the portable type and the row's capability token for the others. The generated
/// `Backend::run(self, op)` is the crate's only `match` over its backends: the portable arm calls
/// `op.run::<PortableImpl>(Portable)`, every other arm calls a target-feature island, generated
/// here once per row, whose body is `op.run::<RowImpl>(t)`. An operation is then a small struct
/// holding its arguments with an `#[inline(always)]` `run`, so the generic code it calls is
/// compiled into the row's island. Several operation traits may be listed, one line each.
///
/// ```
/// /// The crate's implementation trait: here, one lane-wise addition.
/// trait Unit {
///     type Token: Copy;
///     fn add(t: Self::Token, a: &mut [u64; 4], b: &[u64; 4]);
/// }
/// /// Portable.
/// struct Plain;
/// impl Unit for Plain {
///     type Token = tessera_cpu::Portable;
///     #[inline(always)]
///     fn add(_: Self::Token, a: &mut [u64; 4], b: &[u64; 4]) {
///         for (x, y) in a.iter_mut().zip(b) {
///             *x = x.wrapping_add(*y);
///         }
///     }
/// }
/// /// AVX2 (the same loop, compiled in an AVX2 island).
/// #[cfg(target_arch = "x86_64")]
/// struct Avx2;
/// #[cfg(target_arch = "x86_64")]
/// impl Unit for Avx2 {
///     type Token = tessera_cpu::X86Avx2;
///     #[inline(always)]
///     fn add(_: Self::Token, a: &mut [u64; 4], b: &[u64; 4]) {
///         Plain::add(tessera_cpu::Portable, a, b)
///     }
/// }
///
/// /// The crate's operation trait.
/// trait Op {
///     type Out;
///     fn run<U: Unit>(self, t: U::Token) -> Self::Out;
/// }
/// /// One operation: `a + b + b`.
/// struct AddTwice<'a>(&'a mut [u64; 4], &'a [u64; 4]);
/// impl Op for AddTwice<'_> {
///     type Out = ();
///     #[inline(always)]
///     fn run<U: Unit>(self, t: U::Token) {
///         U::add(t, self.0, self.1);
///         U::add(t, self.0, self.1);
///     }
/// }
///
/// tessera_cpu::backends! {
///     /// The backends of an example.
///     enum Backend {
///         /// Plain Rust.
///         Portable = "portable" => Plain,
///         /// AVX2.
///         #[cfg(target_arch = "x86_64")]
///         X86Avx2(X86Avx2) = "x86_avx2" => Avx2,
///     }
///     /// Runs an operation on this backend.
///     fn run: Op;
/// }
/// assert_eq!(Backend::KNOWN, ["portable", "x86_avx2"]);
/// assert_eq!(Backend::all_available().next(), Some(Backend::Portable));
/// assert!(Backend::all_available().any(|b| b == Backend::detect()));
/// assert_eq!(Backend::from_name("portable"), Some(Backend::Portable));
/// for b in Backend::all_available() {
///     let mut a = [1, 2, 3, 4];
///     b.run(AddTwice(&mut a, &[1; 4]));
///     assert_eq!(a, [3, 4, 5, 6]);
/// }
/// ```
#[macro_export]
macro_rules! backends {
    (
        $(#[$m:meta])*
        $vis:vis enum $enum:ident {
            $(#[doc = $pd:literal])*
            Portable = $pname:literal $(=> $pimpl:ty)?,
            $(
                $(#[doc = $d:literal])*
                #[cfg($c:meta)]
                $variant:ident($token:ident) = $name:literal $(=> $impl:ty)?,
            )*
        }
        $(
            $(#[$om:meta])*
            $ovis:vis fn $method:ident: $op:path;
        )*
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $enum {
            $(#[doc = $pd])*
            Portable,
            $(
                $(#[doc = $d])*
                #[cfg($c)]
                $variant($crate::$token),
            )*
        }

        impl $enum {
            /// Every backend name of this table, on any CPU and architecture.
            pub const KNOWN: &'static [&'static str] = &[$pname, $($name),*];

            /// The best backend this CPU can run.
            #[inline]
            pub fn detect() -> Self {
                $(
                    #[cfg($c)]
                    if let Some(t) = $crate::$token::detect() {
                        return $enum::$variant(t);
                    }
                )*
                $enum::Portable
            }

            /// Every backend this CPU can run, `Portable` first (for tests and benches).
            pub fn all_available() -> impl Iterator<Item = Self> + Clone {
                [
                    Some($enum::Portable),
                    $({
                        #[cfg($c)]
                        let row = $crate::$token::detect().map($enum::$variant);
                        #[cfg(not($c))]
                        let row = None;
                        row
                    },)*
                ]
                .into_iter()
                .flatten()
            }

            /// The backend's stable name (one of [`Self::KNOWN`]).
            pub fn name(&self) -> &'static str {
                match self {
                    $enum::Portable => $pname,
                    $(
                        #[cfg($c)]
                        $enum::$variant(_) => $name,
                    )*
                }
            }

            /// The available backend called `name`, if this CPU can run it.
            pub fn from_name(name: &str) -> Option<Self> {
                Self::all_available().find(|b| b.name() == name)
            }

            $crate::__backends_run! {
                [$enum, [$($pimpl)?], $([$variant, $token, [$($impl)?], $c])*]
                $($(#[$om])* $ovis fn $method: $op;)*
            }
        }

        impl $crate::BackendSet for $enum {
            const KNOWN: &'static [&'static str] = $enum::KNOWN;
            fn portable() -> Self {
                $enum::Portable
            }
            fn detect() -> Self {
                $enum::detect()
            }
            fn all_available() -> impl Iterator<Item = Self> {
                $enum::all_available()
            }
            fn name(&self) -> &'static str {
                $enum::name(self)
            }
        }
    };
}

/// One `run` method of [`backends!`]: the match over the rows, with one island per SIMD row.
#[doc(hidden)]
#[macro_export]
macro_rules! __backends_run {
    ($rows:tt) => {};
    (
        $rows:tt
        $(#[$om:meta])* $ovis:vis fn $method:ident: $op:path;
        $($rest:tt)*
    ) => {
        $crate::__backends_run! { @one $rows $(#[$om])* $ovis fn $method: $op; }
        $crate::__backends_run! { $rows $($rest)* }
    };
    (
        @one [$enum:ident, [$pimpl:ty], $([$variant:ident, $token:ident, [$impl:ty], $c:meta])*]
        $(#[$om:meta])* $ovis:vis fn $method:ident: $op:path;
    ) => {
        $(#[$om])*
        #[inline]
        $ovis fn $method<O: $op>(self, op: O) -> O::Out {
            match self {
                $enum::Portable => op.run::<$pimpl>($crate::Portable),
                $(
                    #[cfg($c)]
                    $enum::$variant(t) => {
                        $crate::island! {
                            /// The operation compiled for this row's target features.
                            fn row<O: $op>(t: $token, op: O) -> O::Out {
                                op.run::<$impl>(t)
                            }
                        }
                        row(t, op)
                    }
                )*
            }
        }
    };
    (@one $($rest:tt)*) => {
        compile_error!("tessera_cpu::backends!: a table with operation traits names the \
                        implementation type of every row (`Row(Token) = \"name\" => Type,`)");
    };
}
