//! Rows appended in bulk: the one way a batch of commands inserts its journal rows and first
//! answers.
//!
//! A group commit's rows go in column by column ([`Appended`]). On Postgres each table's rows
//! are one `INSERT .. SELECT .. FROM unnest(..)` whose text does not depend on how many rows there
//! are, so the server prepares and plans it once per connection (a multi-row `VALUES` list is
//! new text, parsed and planned again, for every size of batch); and every table of a batch goes
//! in one statement (data-modifying `WITH` clauses), which Postgres runs atomically even outside
//! a transaction. That is what lets a batch that only appends be written in one round trip that
//! also commits ([`crate::commit`]). On SQLite, which has no arrays, the same rows become
//! multi-row inserts, written inside the caller's transaction.

use chrono::{DateTime, FixedOffset, Utc};
use sea_orm::sea_query::{ArrayType, Value};
use sea_orm::{ConnectionTrait, DbBackend, DbErr, Statement};

/// Rows to a multi-row insert on SQLite: well under its limit on bound parameters.
const SQLITE_ROWS_PER_INSERT: usize = 500;

/// One column's values, one a row.
#[derive(Debug, Clone)]
enum Values {
    Text(Vec<String>),
    BigInt(Vec<i64>),
    Int(Vec<i32>),
    Bytes(Vec<Vec<u8>>),
    /// Sent to Postgres as empty bytes for NULL (its driver binds no NULL inside a bytea array),
    /// so an empty value cannot be told from none: [`Appended::optional_bytes`] says so.
    OptionalBytes(Vec<Option<Vec<u8>>>),
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
            Values::SameTime(_) => None,
        }
    }

    /// The Postgres type of one value.
    fn pg_type(&self) -> &'static str {
        match self {
            Values::Text(_) => "text",
            Values::BigInt(_) => "int8",
            Values::Int(_) => "int4",
            Values::Bytes(_) | Values::OptionalBytes(_) => "bytea",
            Values::SameTime(_) => "timestamptz",
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
            Values::SameTime(at) => at,
        }
    }
}

/// Rows appended to one table, column by column (see the module docs).
#[derive(Debug, Clone)]
pub struct Appended {
    table: &'static str,
    rows: usize,
    columns: Vec<(&'static str, Values)>,
}

impl Appended {
    /// `rows` rows to `table`; add every column with the same number of values.
    pub fn new(table: &'static str, rows: usize) -> Appended {
        Appended { table, rows, columns: Vec::new() }
    }

    /// How many rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// A text column.
    pub fn text(self, column: &'static str, values: Vec<String>) -> Appended {
        self.with(column, Values::Text(values))
    }

    /// A `BIGINT` column.
    pub fn big_int(self, column: &'static str, values: Vec<i64>) -> Appended {
        self.with(column, Values::BigInt(values))
    }

    /// An `INTEGER` column.
    pub fn int(self, column: &'static str, values: Vec<i32>) -> Appended {
        self.with(column, Values::Int(values))
    }

    /// A binary column.
    pub fn bytes(self, column: &'static str, values: Vec<Vec<u8>>) -> Appended {
        self.with(column, Values::Bytes(values))
    }

    /// A nullable binary column whose values are never empty (on Postgres an empty value is
    /// stored as NULL).
    pub fn optional_bytes(self, column: &'static str, values: Vec<Option<Vec<u8>>>) -> Appended {
        self.with(column, Values::OptionalBytes(values))
    }

    /// A timestamp-with-offset column holding `at` on every row.
    pub fn same_time(self, column: &'static str, at: DateTime<FixedOffset>) -> Appended {
        self.with(column, Values::SameTime(at.into()))
    }

    /// A UTC timestamp column holding `at` on every row.
    pub fn same_time_utc(self, column: &'static str, at: DateTime<Utc>) -> Appended {
        self.with(column, Values::SameTime(at.into()))
    }

    fn with(mut self, column: &'static str, values: Values) -> Appended {
        self.columns.push((column, values));
        self
    }

    /// A column whose length is not the rows': our own bug, refused before anything is sent.
    fn check(&self) -> Result<(), DbErr> {
        for (column, values) in &self.columns {
            if let Some(rows) = values.rows()
                && rows != self.rows
            {
                return Err(DbErr::Custom(format!("{}.{column}: {rows} values for {} rows", self.table, self.rows)));
            }
        }
        Ok(())
    }

    fn column_list(&self) -> String {
        self.columns.iter().map(|(name, _)| format!("\"{name}\"")).collect::<Vec<_>>().join(", ")
    }

    /// `INSERT .. SELECT .. FROM unnest(..)`, its parameters numbered after `parameters`'.
    fn pg_insert(self, parameters: &mut Vec<Value>) -> String {
        let columns = self.column_list();
        let mut arrays = Vec::new();
        let mut aliases = Vec::new();
        let mut selected = Vec::new();
        for (i, (_, values)) in self.columns.into_iter().enumerate() {
            let n = parameters.len() + 1;
            let ty = values.pg_type();
            match &values {
                Values::SameTime(_) => selected.push(format!("${n}::{ty}")),
                Values::OptionalBytes(_) => {
                    arrays.push(format!("${n}::{ty}[]"));
                    aliases.push(format!("c{i}"));
                    selected.push(format!("NULLIF(u.c{i}, ''::bytea)"));
                }
                _ => {
                    arrays.push(format!("${n}::{ty}[]"));
                    aliases.push(format!("c{i}"));
                    selected.push(format!("u.c{i}"));
                }
            }
            parameters.push(values.pg_parameter());
        }
        format!(
            "INSERT INTO \"{}\" ({columns}) SELECT {} FROM unnest({}) AS u({})",
            self.table,
            selected.join(", "),
            arrays.join(", "),
            aliases.join(", ")
        )
    }

    /// Multi-row inserts of at most [`SQLITE_ROWS_PER_INSERT`] rows.
    fn sqlite_inserts(&self) -> Vec<Statement> {
        let columns = self.column_list();
        let placeholders = format!("({})", vec!["?"; self.columns.len()].join(", "));
        let mut statements = Vec::new();
        let mut start = 0;
        while start < self.rows {
            let end = (start + SQLITE_ROWS_PER_INSERT).min(self.rows);
            let mut values = Vec::with_capacity((end - start) * self.columns.len());
            for row in start..end {
                values.extend(self.columns.iter().map(|(_, column)| column.value(row)));
            }
            let sql = format!(
                "INSERT INTO \"{}\" ({columns}) VALUES {}",
                self.table,
                vec![placeholders.as_str(); end - start].join(", ")
            );
            statements.push(Statement::from_sql_and_values(DbBackend::Sqlite, sql, values));
            start = end;
        }
        statements
    }
}

/// Inserts every table's rows: on Postgres in one statement (atomic on its own, so `conn` may be
/// the pool), elsewhere one multi-row insert after another (so `conn` must be a transaction when
/// there is more than one).
pub async fn insert_all(conn: &impl ConnectionTrait, appends: Vec<Appended>) -> Result<(), DbErr> {
    let appends: Vec<Appended> = appends.into_iter().filter(|a| a.rows > 0).collect();
    for appended in &appends {
        appended.check()?;
    }
    if appends.is_empty() {
        return Ok(());
    }
    match conn.get_database_backend() {
        DbBackend::Postgres => {
            let mut parameters = Vec::new();
            let mut inserts: Vec<String> =
                appends.into_iter().map(|appended| appended.pg_insert(&mut parameters)).collect();
            let last = inserts.pop().unwrap_or_default();
            let sql = if inserts.is_empty() {
                last
            } else {
                let clauses: Vec<String> =
                    inserts.iter().enumerate().map(|(i, insert)| format!("a{i} AS ({insert})")).collect();
                format!("WITH {} {last}", clauses.join(", "))
            };
            conn.execute_raw(Statement::from_sql_and_values(DbBackend::Postgres, sql, parameters)).await?;
        }
        _ => {
            for appended in &appends {
                for statement in appended.sqlite_inserts() {
                    conn.execute_raw(statement).await?;
                }
            }
        }
    }
    Ok(())
}
