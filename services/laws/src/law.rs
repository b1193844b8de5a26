//! Citations: which code of Laws, and which Law in it, a rule comes from.
//!
//! Every error this crate returns for a bridge rule names the Law that forbids the action, so
//! that a service can put it in the message its users read ("insufficient bid: Law 27 of the
//! Laws of Rubber Bridge"). [`Law`] is that citation; [`CitesLaw`] is implemented by every
//! rule error.

use std::fmt;

/// The code of Laws a rule is taken from.
///
/// Rubber bridge (and Chicago) tables play under the Laws of Rubber Bridge 2014, optionally with
/// the Alternative Club Laws of its Part VIII; duplicate sessions play under the Laws of
/// Duplicate Bridge 2017. The two differ in places (revoke transfers, claims, rectification),
/// so an engine is always told which code it applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// Laws of Rubber Bridge 2014 (ACBL edition), Laws 1-81 and Appendices 1-4.
    Rubber,
    /// Alternative Club Laws (Laws of Rubber Bridge 2014, Part VIII): the Arbiter's Laws, the
    /// Club Appeals Committee.
    Club,
    /// Rules for Club Procedure (Laws of Rubber Bridge 2014, Part VIII): table membership,
    /// cut-ins, going out. Numbered by letter (A-F), stored here as 1-6.
    ClubProcedure,
    /// Appendix 4 of the Laws of Rubber Bridge 2014: Chicago (four-deal bridge). Numbered by
    /// letter (A-H), stored here as 1-8.
    Chicago,
    /// Laws of Duplicate Bridge 2017.
    Duplicate,
}

impl Code {
    /// The title of the code as a reader of an error message would recognise it.
    pub const fn title(self) -> &'static str {
        match self {
            Code::Rubber => "Laws of Rubber Bridge",
            Code::Club => "Alternative Club Laws",
            Code::ClubProcedure => "Rules for Club Procedure",
            Code::Chicago => "Chicago (Rubber Bridge Appendix 4)",
            Code::Duplicate => "Laws of Duplicate Bridge",
        }
    }
}

/// A citation of one Law (and optionally its section), such as Law 27B of the Laws of Rubber
/// Bridge or rule E of the Rules for Club Procedure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Law {
    /// The code the Law belongs to.
    pub code: Code,
    /// The Law's number (for lettered rules, A = 1, B = 2, ...).
    pub number: u8,
    /// The section within the Law, as printed ("B", "C1", "A3"), or empty.
    pub section: &'static str,
}

impl Law {
    /// A Law of Rubber Bridge 2014.
    pub const fn rubber(number: u8, section: &'static str) -> Law {
        Law { code: Code::Rubber, number, section }
    }

    /// A Law of Duplicate Bridge 2017.
    pub const fn duplicate(number: u8, section: &'static str) -> Law {
        Law { code: Code::Duplicate, number, section }
    }

    /// An Alternative Club Law (Laws of Rubber Bridge 2014, Part VIII).
    pub const fn club(number: u8, section: &'static str) -> Law {
        Law { code: Code::Club, number, section }
    }

    /// The Club Appeals Committee (Laws of Rubber Bridge 2014, Part VIII), which has no number
    /// of its own: stored as Club Law 0.
    pub const fn club_appeals() -> Law {
        Law { code: Code::Club, number: 0, section: "" }
    }

    /// A rule of the Rules for Club Procedure, by letter (`'A'..='F'`).
    pub const fn club_procedure(letter: char) -> Law {
        Law { code: Code::ClubProcedure, number: letter as u8 - b'A' + 1, section: "" }
    }

    /// A rule of Rubber Bridge Appendix 4 (Chicago), by letter (`'A'..='H'`), with a section.
    pub const fn chicago(letter: char, section: &'static str) -> Law {
        Law { code: Code::Chicago, number: letter as u8 - b'A' + 1, section }
    }

    /// The same Law number and section in another code. Used where the rubber and duplicate
    /// Laws share numbering for the same rule (most of Laws 17-71).
    pub const fn in_code(self, code: Code) -> Law {
        Law { code, ..self }
    }
}

impl Code {
    /// The numbers the code's rules carry: Laws 1 to 81 of rubber bridge; the Alternative Club
    /// Laws by the number of the Law they amend (1 to 81), and 0 for the Club Appeals Committee;
    /// rules A to F of the Rules for Club Procedure and A to H of Chicago by letter position;
    /// Laws 1 to 93 of duplicate.
    pub const fn numbers(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Code::Rubber => 1..=81,
            Code::Club => 0..=81,
            Code::ClubProcedure => 1..=6,
            Code::Chicago => 1..=8,
            Code::Duplicate => 1..=93,
        }
    }
}

/// Writes the citation of rule `number`, section `section`, of `code` as a reader would say it
/// ("Law 27B of the Laws of Rubber Bridge", "rule E of the Rules for Club Procedure"). A number
/// outside [`Code::numbers`] is written as a number. [`Law`]'s `Display` is this; services use
/// it for citations that arrive as data (a ruling's Laws), whose section is not `'static`.
pub fn write_citation(f: &mut impl fmt::Write, code: Code, number: u8, section: &str) -> fmt::Result {
    let letter = |n: u8| if (1..=26).contains(&n) { char::from(b'A' + n - 1) } else { '?' };
    match code {
        Code::ClubProcedure => write!(f, "rule {} of the {}", letter(number), code.title()),
        Code::Chicago => write!(f, "rule {}{} of {}", letter(number), section, code.title()),
        Code::Club if number == 0 => write!(f, "the Club Appeals Committee ({})", code.title()),
        Code::Club => write!(f, "Club Law {}{} ({})", number, section, code.title()),
        _ => write!(f, "Law {}{} of the {}", number, section, code.title()),
    }
}

/// The citation of rule `number`, section `section`, of `code`, as [`write_citation`] writes it.
pub fn citation_text(code: Code, number: u8, section: &str) -> String {
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = write_citation(&mut text, code, number, section);
    text
}

impl fmt::Display for Law {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_citation(f, self.code, self.number, self.section)
    }
}

/// Implemented by every error that refuses an action because a Law forbids it.
pub trait CitesLaw {
    /// The Law that forbids the action.
    fn law(&self) -> Law;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citations_read_as_a_player_would_say_them() {
        assert_eq!(Law::rubber(27, "B").to_string(), "Law 27B of the Laws of Rubber Bridge");
        assert_eq!(Law::duplicate(64, "").to_string(), "Law 64 of the Laws of Duplicate Bridge");
        assert_eq!(Law::club_procedure('E').to_string(), "rule E of the Rules for Club Procedure");
        assert_eq!(Law::chicago('F', "2").to_string(), "rule F2 of Chicago (Rubber Bridge Appendix 4)");
        assert_eq!(Law::club(69, "").to_string(), "Club Law 69 (Alternative Club Laws)");
        assert_eq!(Law::club_appeals().to_string(), "the Club Appeals Committee (Alternative Club Laws)");
    }

    #[test]
    fn citations_from_data_read_the_same_and_each_code_knows_its_numbers() {
        assert_eq!(citation_text(Code::Duplicate, 12, "C1(c)"), Law::duplicate(12, "C1(c)").to_string());
        assert_eq!(citation_text(Code::ClubProcedure, 5, ""), "rule E of the Rules for Club Procedure");
        assert_eq!(citation_text(Code::Club, 0, ""), Law::club_appeals().to_string());
        assert!(Code::Rubber.numbers().contains(&81) && !Code::Rubber.numbers().contains(&82));
        assert!(Code::Duplicate.numbers().contains(&93) && !Code::Duplicate.numbers().contains(&0));
        assert!(!Code::ClubProcedure.numbers().contains(&7) && !Code::Chicago.numbers().contains(&9));
    }
}
