//! Rows written in bulk: the one way a batch of commands inserts its journal rows and first
//! answers, and moves the rows of other tables it changes (a deal's phase, say).
//!
//! A group commit's rows go in column by column ([`Rows`]): rows inserted into a table, or rows
//! of a table updated by key. On Postgres each part is one `INSERT .. SELECT .. FROM unnest(..)`
//! or `UPDATE .. FROM unnest(..)` whose text does not depend on how many rows there are, so the
//! server prepares and plans it once per connection (a multi-row `VALUES` list is new text, parsed
//! and planned again, for every size of batch); and every part of a batch goes in one statement
//! (data-modifying `WITH` clauses), which Postgres runs atomically even outside a transaction.
//! That is what lets a batch be written in one round trip that also commits ([`crate::commit`]),
//! where a transaction takes one for BEGIN, one for each write and one for COMMIT.
//!
//! The parts of one statement all see the tables as they stood before it, so no two parts may
//! touch the same row (an update does not see a row inserted beside it, and a row updated by two
//! parts takes only one of them): the caller splits its rows so that they do not.
//!
//! On SQLite, which has no arrays, the same rows become multi-row inserts and
//! `UPDATE .. FROM (VALUES ..)`, written one after another inside the caller's transaction.

use chrono::{DateTime, FixedOffset, Utc};
use sea_orm::sea_query::{ArrayType, Value};
use sea_orm::{ConnectionTrait, DbBackend, DbErr, Statement};

/// Rows to one statement on SQLite: well under its limit on bound parameters.
const SQLITE_ROWS_PER_STATEMENT: usize = 500;

/// One column's values, one a row.
#[derive(Debug, Clone)]
enum Values {
    Text(Vec<String>),
    BigInt(Vec<i64>),
    Int(Vec<i32>),
    Bytes(Vec<Vec<u8>>),
    /// Sent to Postgres as empty bytes for NULL (its driver binds no NULL inside a bytea array),
    /// so an empty value cannot be told from none: [`Rows::optional_bytes`] says so.
    OptionalBytes(Vec<Option<Vec<u8>>>),
    /// Likewise sent as the empty string for NULL: [`Rows::optional_text`].
    OptionalText(Vec<Option<String>>),
    /// Sent to Postgres as text, the empty string for NULL, and cast back.
    OptionalInt(Vec<Option<i32>>),
    /// A time on each row.
    Times(Vec<DateTime<FixedOffset>>),
    /// The same instant on every row (with its offset, or in UTC: each column is read back as
    /// its entity declares it, which on SQLite is the text it was written as).
    SameTime(Value),
}

impl Values {
    /// How many rows it holds (`None`: the same on any number).
    fn rows(&self) -> Option<usize> {
        match self {
            Values::Text(v) => Some(v.len()),
            Values::BigInt(v) => Some(v.len()),
            Values::Int(v) => Some(v.len()),
            Values::Bytes(v) => Some(v.len()),
            Values::OptionalBytes(v) => Some(v.len()),
            Values::OptionalText(v) => Some(v.len()),
            Values::OptionalInt(v) => Some(v.len()),
            Values::Times(v) => Some(v.len()),
            Values::SameTime(_) => None,
        }
    }

    /// The Postgres type of one value.
    fn pg_type(&self) -> &'static str {
        match self {
            Values::Text(_) | Values::OptionalText(_) => "text",
            Values::BigInt(_) => "int8",
            Values::Int(_) | Values::OptionalInt(_) => "int4",
            Values::Bytes(_) | Values::OptionalBytes(_) => "bytea",
            Values::SameTime(_) | Values::Times(_) => "timestamptz",
        }
    }

    /// Row `row`'s value, for SQLite.
    fn value(&self, row: usize) -> Value {
        match self {
            Values::Text(v) => v[row].clone().into(),
            Values::BigInt(v) => v[row].into(),
            Values::Int(v) => v[row].into(),
            Values::Bytes(v) => v[row].clone().into(),
            Values::OptionalBytes(v) => v[row].clone().into(),
            Values::OptionalText(v) => v[row].clone().into(),
            Values::OptionalInt(v) => v[row].into(),
            Values::Times(v) => v[row].into(),
            Values::SameTime(at) => at.clone(),
        }
    }

    /// The whole column as one Postgres parameter (an array, or the one instant).
    fn pg_parameter(self) -> Value {
        fn array<T: Into<Value>>(ty: ArrayType, values: Vec<T>) -> Value {
            Value::Array(ty, Some(Box::new(values.into_iter().map(Into::into).collect())))
        }
        match self {
            Values::Text(v) => array(ArrayType::String, v),
            Values::BigInt(v) => array(ArrayType::BigInt, v),
            Values::Int(v) => array(ArrayType::Int, v),
            Values::Bytes(v) => array(ArrayType::Bytes, v),
            Values::OptionalBytes(v) => array(ArrayType::Bytes, v.into_iter().map(Option::unwrap_or_default).collect()),
            Values::OptionalText(v) => array(ArrayType::String, v.into_iter().map(Option::unwrap_or_default).collect()),
            Values::OptionalInt(v) => {
                array(ArrayType::String, v.into_iter().map(|n| n.map(|n| n.to_string()).unwrap_or_default()).collect())
            }
            Values::Times(v) => array(ArrayType::ChronoDateTimeWithTimeZone, v),
            Values::SameTime(at) => at,
        }
    }
}

/// Rows of one table, column by column: inserted, or updated by key (see the module docs).
#[derive(Debug, Clone)]
pub struct Rows {
    table: &'static str,
    rows: usize,
    columns: Vec<(&'static str, Values)>,
    /// For an update: the column naming each row to update (its values are given like any
    /// other column's); the other columns are set.
    key: Option<&'static str>,
}

impl Rows {
    /// `rows` rows inserted into `table`; add every column with the same number of values.
    pub fn insert(table: &'static str, rows: usize) -> Rows {
        Rows { table, rows, columns: Vec::new(), key: None }
    }

    /// `rows` rows of `table` updated: each is the row whose `key` column holds that row's value
    /// of the `key` column added here, and every other column added is set on it. A key no row
    /// holds updates nothing.
    pub fn update(table: &'static str, key: &'static str, rows: usize) -> Rows {
        Rows { table, rows, columns: Vec::new(), key: Some(key) }
    }

    /// How many rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// A text column.
    pub fn text(self, column: &'static str, values: Vec<String>) -> Rows {
        self.with(column, Values::Text(values))
    }

    /// A nullable text column whose values are never empty (on Postgres an empty value is
    /// stored as NULL).
    pub fn optional_text(self, column: &'static str, values: Vec<Option<String>>) -> Rows {
        self.with(column, Values::OptionalText(values))
    }

    /// A `BIGINT` column.
    pub fn big_int(self, column: &'static str, values: Vec<i64>) -> Rows {
        self.with(column, Values::BigInt(values))
    }

    /// An `INTEGER` column.
    pub fn int(self, column: &'static str, values: Vec<i32>) -> Rows {
        self.with(column, Values::Int(values))
    }

    /// A nullable `INTEGER` column.
    pub fn optional_int(self, column: &'static str, values: Vec<Option<i32>>) -> Rows {
        self.with(column, Values::OptionalInt(values))
    }

    /// A timestamp-with-offset column, a time a row.
    pub fn times(self, column: &'static str, values: Vec<DateTime<FixedOffset>>) -> Rows {
        self.with(column, Values::Times(values))
    }

    /// A binary column.
    pub fn bytes(self, column: &'static str, values: Vec<Vec<u8>>) -> Rows {
        self.with(column, Values::Bytes(values))
    }

    /// A nullable binary column whose values are never empty (on Postgres an empty value is
    /// stored as NULL).
    pub fn optional_bytes(self, column: &'static str, values: Vec<Option<Vec<u8>>>) -> Rows {
        self.with(column, Values::OptionalBytes(values))
    }

    /// A timestamp-with-offset column holding `at` on every row.
    pub fn same_time(self, column: &'static str, at: DateTime<FixedOffset>) -> Rows {
        self.with(column, Values::SameTime(at.into()))
    }

    /// A UTC timestamp column holding `at` on every row.
    pub fn same_time_utc(self, column: &'static str, at: DateTime<Utc>) -> Rows {
        self.with(column, Values::SameTime(at.into()))
    }

    fn with(mut self, column: &'static str, values: Values) -> Rows {
        self.columns.push((column, values));
        self
    }

    /// A column whose length is not the rows', or an update without its key column: our own
    /// bug, refused before anything is sent.
    fn check(&self) -> Result<(), DbErr> {
        for (column, values) in &self.columns {
            if let Some(rows) = values.rows()
                && rows != self.rows
            {
                return Err(DbErr::Custom(format!("{}.{column}: {rows} values for {} rows", self.table, self.rows)));
            }
        }
        if let Some(key) = self.key
            && !self.columns.iter().any(|(column, values)| *column == key && values.rows().is_some())
        {
            return Err(DbErr::Custom(format!("{}: an update without its key column {key}", self.table)));
        }
        Ok(())
    }

    fn column_list(&self) -> String {
        self.columns.iter().map(|(name, _)| format!("\"{name}\"")).collect::<Vec<_>>().join(", ")
    }

    /// The Postgres statement: `INSERT .. SELECT .. FROM unnest(..)` or `UPDATE .. FROM
    /// unnest(..)`, its parameters numbered after `parameters`'.
    fn pg_statement(self, parameters: &mut Vec<Value>) -> String {
        let columns = self.column_list();
        let names: Vec<&'static str> = self.columns.iter().map(|(name, _)| *name).collect();
        let mut arrays = Vec::new();
        let mut aliases = Vec::new();
        // Each column's value in a row, as the statement reads it.
        let mut selected = Vec::new();
        for (i, (_, values)) in self.columns.into_iter().enumerate() {
            let n = parameters.len() + 1;
            let ty = values.pg_type();
            match &values {
                Values::SameTime(_) => selected.push(format!("${n}::{ty}")),
                Values::OptionalBytes(_) | Values::OptionalText(_) => {
                    arrays.push(format!("${n}::{ty}[]"));
                    aliases.push(format!("c{i}"));
                    selected.push(format!("NULLIF(u.c{i}, ''::{ty})"));
                }
                Values::OptionalInt(_) => {
                    arrays.push(format!("${n}::text[]"));
                    aliases.push(format!("c{i}"));
                    selected.push(format!("NULLIF(u.c{i}, '')::{ty}"));
                }
                _ => {
                    arrays.push(format!("${n}::{ty}[]"));
                    aliases.push(format!("c{i}"));
                    selected.push(format!("u.c{i}"));
                }
            }
            parameters.push(values.pg_parameter());
        }
        let (table, from) = (self.table, format!("unnest({}) AS u({})", arrays.join(", "), aliases.join(", ")));
        let Some(key) = self.key else {
            return format!("INSERT INTO \"{table}\" ({columns}) SELECT {} FROM {from}", selected.join(", "));
        };
        let (set, matched) = update_clauses(table, key, names.into_iter().zip(selected));
        format!("UPDATE \"{table}\" SET {set} FROM {from} WHERE {matched}")
    }

    /// The SQLite statements: multi-row inserts, or `UPDATE .. FROM (VALUES ..)` (whose columns
    /// SQLite names `column1`, `column2` ...), each of at most [`SQLITE_ROWS_PER_STATEMENT`] rows.
    fn sqlite_statements(&self) -> Vec<Statement> {
        let placeholders = format!("({})", vec!["?"; self.columns.len()].join(", "));
        let sql = |rows: usize| {
            let values = vec![placeholders.as_str(); rows].join(", ");
            let Some(key) = self.key else {
                return format!("INSERT INTO \"{}\" ({}) VALUES {values}", self.table, self.column_list());
            };
            let read = self.columns.iter().enumerate().map(|(i, (name, _))| (*name, format!("v.column{}", i + 1)));
            let (set, matched) = update_clauses(self.table, key, read);
            format!("UPDATE \"{}\" SET {set} FROM (VALUES {values}) AS v WHERE {matched}", self.table)
        };
        let mut statements = Vec::new();
        let mut start = 0;
        while start < self.rows {
            let end = (start + SQLITE_ROWS_PER_STATEMENT).min(self.rows);
            let mut values = Vec::with_capacity((end - start) * self.columns.len());
            for row in start..end {
                values.extend(self.columns.iter().map(|(_, column)| column.value(row)));
            }
            statements.push(Statement::from_sql_and_values(DbBackend::Sqlite, sql(end - start), values));
            start = end;
        }
        statements
    }
}

/// An update's SET list and WHERE condition, from each column's name and how the statement reads
/// its value: the `key` column names the row, every other column is set.
fn update_clauses(table: &str, key: &str, columns: impl Iterator<Item = (&'static str, String)>) -> (String, String) {
    let (mut set, mut matched) = (Vec::new(), String::new());
    for (name, value) in columns {
        if name == key {
            matched = format!("\"{table}\".\"{key}\" = {value}");
        } else {
            set.push(format!("\"{name}\" = {value}"));
        }
    }
    (set.join(", "), matched)
}

/// Writes every part: on Postgres in one statement (atomic on its own, so `conn` may be the
/// pool), elsewhere one statement after another (so `conn` must be a transaction when there is
/// more than one). No two parts may touch the same row (see the module docs).
pub async fn write_all(conn: &impl ConnectionTrait, parts: Vec<Rows>) -> Result<(), DbErr> {
    let parts: Vec<Rows> = parts.into_iter().filter(|part| part.rows > 0).collect();
    for part in &parts {
        part.check()?;
    }
    if parts.is_empty() {
        return Ok(());
    }
    match conn.get_database_backend() {
        DbBackend::Postgres => {
            let mut parameters = Vec::new();
            let mut statements: Vec<String> =
                parts.into_iter().map(|part| part.pg_statement(&mut parameters)).collect();
            let last = statements.pop().unwrap_or_default();
            let sql = if statements.is_empty() {
                last
            } else {
                let clauses: Vec<String> =
                    statements.iter().enumerate().map(|(i, part)| format!("p{i} AS ({part})")).collect();
                format!("WITH {} {last}", clauses.join(", "))
            };
            conn.execute_raw(Statement::from_sql_and_values(DbBackend::Postgres, sql, parameters)).await?;
        }
        _ => {
            for part in &parts {
                for statement in part.sqlite_statements() {
                    conn.execute_raw(statement).await?;
                }
            }
        }
    }
    Ok(())
}
