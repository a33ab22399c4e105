//! Special-rule modules, one file per game, and the registry that maps `rules = NAME` in
//! `engine.ini` to a module. Generic code never names a game; it is handed a
//! `Position<R>` for the right `R` through [`dispatch`].
//!
//! Loading is two steps: [`crate::variant::parse_ini`] reads the data, then
//! [`Catalog::prepare`] lets each rules module check its settings and start position and builds
//! each variant's tables, evaluation tables and keys once ([`AnyGame`]), shared from then on.

mod chess911;
pub mod rbc;
mod remotesensing;
mod tensor;

use crate::bitboard::Word;
use crate::position::{Game, Position};
use crate::rules::{Plain, PlainWide, Rules};
use crate::variant::{DEFAULT_INI, IniError, Variant, VariantSet, load_ini_file, parse_ini};
use std::sync::{Arc, LazyLock};

/// Lists every rules module once: `"name" => Tag(Type)`, or `"name" => Tag(Type) / WideTag(WideType)`
/// for a module with both bitboard widths (the wide one serves boards of more than 64 squares).
/// It defines [`AnyGame`], [`NAMES`], the builder and [`dispatch`], so adding a game touches
/// this table only.
macro_rules! registry {
    ($($name:literal => $tag:ident($ty:ty) $(/ $wtag:ident($wty:ty))?,)*) => {
        /// A variant's game data (tables, keys, rules module), built once and typed by its rules
        /// module. Cloning shares it.
        #[derive(Clone, Debug)]
        pub enum AnyGame {
            $(
                #[doc = concat!("A game of module `", $name, "`.")]
                $tag(Arc<Game<$ty>>),
                $(
                    #[doc = concat!("A game of module `", $name, "` on a board of more than 64 squares.")]
                    $wtag(Arc<Game<$wty>>),
                )?
            )*
        }

        /// Every module name accepted by `rules = NAME`.
        pub const NAMES: &[&str] = &[$($name),*];

        /// The `rules.KEY` settings a module reads (`None`: no such module).
        fn settings_of(module: &str) -> Option<&'static [&'static str]> {
            match module {
                $($name => Some(<$ty as Rules>::SETTINGS),)*
                _ => None,
            }
        }

        /// The evaluation features a module names (none for an unknown module).
        pub fn eval_features_of(module: &str) -> &'static [&'static str] {
            match module {
                $($name => <$ty as Rules>::EVAL_FEATURES,)*
                _ => &[],
            }
        }

        /// Builds the game data; `wide` asks for 128-bit bitboards even where 64 would do.
        fn build(variant: &Variant, wide: bool) -> Result<AnyGame, String> {
            let squares = variant.geometry.files() * variant.geometry.ranks();
            let _ = (squares, wide);
            match variant.rules.as_str() {
                $($name => {
                    $(
                        if wide || squares > 64 {
                            return Ok(AnyGame::$wtag(Game::<$wty>::new(variant)?));
                        }
                    )?
                    Ok(AnyGame::$tag(Game::<$ty>::new(variant)?))
                })*
                other => Err(format!("unknown rules module '{other}'")),
            }
        }

        impl AnyGame {
            /// The variant as loaded.
            pub fn variant(&self) -> &Variant {
                match self {
                    $(
                        AnyGame::$tag(g) => &g.variant,
                        $(AnyGame::$wtag(g) => &g.variant,)?
                    )*
                }
            }

            /// What its rules module does beyond the generic machinery.
            pub fn caps(&self) -> crate::rules::Capabilities {
                match self {
                    $(
                        AnyGame::$tag(g) => g.caps,
                        $(AnyGame::$wtag(g) => g.caps,)?
                    )*
                }
            }

            /// Bits in the game's bitboards (64 or 128).
            pub fn word_bits(&self) -> u32 {
                match self {
                    $(
                        AnyGame::$tag(_) => <<$ty as Rules>::Word as Word>::BITS,
                        $(AnyGame::$wtag(_) => <<$wty as Rules>::Word as Word>::BITS,)?
                    )*
                }
            }
        }

        /// Runs the visitor on the game data, typed by its rules module.
        pub fn dispatch<V: GameVisitor>(game: &AnyGame, visitor: V) -> V::Output {
            match game {
                $(
                    AnyGame::$tag(g) => visitor.visit(Arc::clone(g)),
                    $(AnyGame::$wtag(g) => visitor.visit(Arc::clone(g)),)?
                )*
            }
        }
    };
}

registry! {
    "plain" => Plain(Plain) / PlainWide(PlainWide),
    "chess911" => Chess911(chess911::Chess911),
    "remotesensing" => RemoteSensing(remotesensing::RemoteSensing),
    "tensor" => Tensor(tensor::Tensor),
    "rbc" => Rbc(rbc::Rbc),
}

impl std::ops::Deref for AnyGame {
    type Target = Variant;
    fn deref(&self) -> &Variant {
        self.variant()
    }
}

/// Code that works for any game: `visit` is called with the variant's game data, typed by its
/// rules module, so the work inside is monomorphised per module.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work for one rules module.
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Self::Output;
}

struct ValidateStart;

impl GameVisitor for ValidateStart {
    type Output = Result<(), String>;
    fn visit<R: Rules>(self, game: Arc<Game<R>>) -> Result<(), String> {
        let fen = game.variant.start_fen.clone();
        let pos = Position::from_fen(game, &fen).map_err(|e| e.to_string())?;
        for c in crate::Color::ALL {
            if pos.royals_gone(c) {
                return Err(format!("{} has no royal piece in the start position", c.name()));
            }
        }
        Ok(())
    }
}

/// The variants of one ini file, each with its game data built: what the engine plays.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// The variants, in the order the file defines them.
    pub variants: Vec<AnyGame>,
}

impl Catalog {
    /// Lets each variant's rules module check it (known module, known `rules.KEY` settings, the
    /// module's own checks, a start FEN that is a position) and builds its game data. Errors
    /// name the file and line of the key at fault.
    pub fn prepare(set: VariantSet) -> Result<Catalog, IniError> {
        Catalog::prepare_with(set, false)
    }

    /// As [`Catalog::prepare`]; `wide` builds every game with 128-bit bitboards, also where 64
    /// bits would do (to check one path against the other).
    pub fn prepare_with(set: VariantSet, wide: bool) -> Result<Catalog, IniError> {
        let mut variants = Vec::with_capacity(set.variants.len());
        for v in set.variants {
            let o = &v.origin;
            let Some(known) = settings_of(&v.rules) else {
                return Err(o.error(
                    "rules",
                    format!("rules: unknown module '{}' (known: {})", v.rules, NAMES.join(", ")),
                ));
            };
            if let Some(key) = v.rule_settings.keys().find(|k| !known.contains(&k.as_str())) {
                let expected = if known.is_empty() {
                    "it reads none".to_string()
                } else {
                    format!(
                        "it reads {}",
                        known
                            .iter()
                            .map(|k| format!("rules.{k}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                return Err(o.error(
                    &format!("rules.{key}"),
                    format!("rules.{key}: unknown setting of the {} rules ({expected})", v.rules),
                ));
            }
            if let Err((key, message)) = crate::eval::variant_weights(&v, eval_features_of(&v.rules)) {
                return Err(o.error(&format!("eval.{key}"), message));
            }
            let game = build(&v, wide).map_err(|m| o.error("rules", format!("rules = {}: {m}", v.rules)))?;
            dispatch(&game, ValidateStart).map_err(|m| o.error("start", format!("start: {m}")))?;
            variants.push(game);
        }
        Ok(Catalog { variants })
    }

    /// Reads and prepares ini text; `file` is only used in error messages.
    pub fn parse(text: &str, file: &str) -> Result<Catalog, IniError> {
        Catalog::prepare(parse_ini(text, file)?)
    }

    /// Reads and prepares an ini file.
    pub fn load(path: &str) -> Result<Catalog, IniError> {
        Catalog::prepare(load_ini_file(path)?)
    }

    /// Finds a variant by name or alias (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&AnyGame> {
        let n = name.to_ascii_lowercase();
        self.variants.iter().find(|v| v.name == n || v.aliases.contains(&n))
    }

    /// Variant names in file order.
    pub fn names(&self) -> Vec<&str> {
        self.variants.iter().map(|v| v.name.as_str()).collect()
    }
}

/// The built-in `engine.ini` with 128-bit bitboards for every board, prepared on first use: the
/// reference the 64-bit path is checked against.
pub fn wide_variants() -> &'static Catalog {
    static WIDE: LazyLock<Catalog> = LazyLock::new(|| {
        let set = parse_ini(DEFAULT_INI, "engine.ini (built in)").expect("the built-in engine.ini is valid");
        Catalog::prepare_with(set, true).expect("the built-in engine.ini is valid")
    });
    &WIDE
}

/// The built-in `engine.ini`, prepared on first use and shared by the whole process.
pub fn default_variants() -> &'static Catalog {
    static DEFAULT: LazyLock<Catalog> = LazyLock::new(|| {
        Catalog::parse(DEFAULT_INI, "engine.ini (built in)").expect("the built-in engine.ini is valid")
    });
    &DEFAULT
}
