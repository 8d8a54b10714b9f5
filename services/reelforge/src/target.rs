//! The targets one `reelforge` process can run, and what each depends on (as Loki's `-target`).

use std::fmt;

/// One thing a process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// Everything in one process: the default.
    All,
    /// The HTTP gateway.
    Gateway,
    /// The auth service.
    Auth,
    /// The material service.
    Material,
    /// The category service.
    Category,
    /// The favourite service.
    Favourite,
    /// The font service.
    Font,
    /// The task service.
    Task,
    /// The AI service.
    Ai,
    /// The ring service (video-ringtone orders and their delivery).
    Ring,
    /// A render worker.
    Worker,
}

/// What a target needs from the backends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The relational database.
    Database,
    /// The cache.
    Cache,
    /// The job queue.
    Queue,
    /// Blob storage.
    Storage,
}

/// Every target with its backends and the targets it calls (Loki's dependency map).
pub const DEPENDENCIES: &[(Target, &[Backend], &[Target])] = &[
    (
        Target::All,
        &[
            Backend::Database,
            Backend::Cache,
            Backend::Queue,
            Backend::Storage,
        ],
        &[],
    ),
    // Every target that verifies a user's token opens the cache: the sign-out deny-list and the
    // users whose tokens were revoked live there (`reelforge_kit::revocation`).
    (
        Target::Gateway,
        &[Backend::Storage, Backend::Cache],
        &[
            Target::Auth,
            Target::Material,
            Target::Category,
            Target::Favourite,
            Target::Font,
            Target::Task,
            Target::Ai,
            Target::Ring,
        ],
    ),
    (Target::Auth, &[Backend::Database, Backend::Cache], &[]),
    (
        Target::Material,
        &[Backend::Database, Backend::Storage, Backend::Cache],
        &[],
    ),
    // A category is deleted only when no template is filed under it: the task service knows.
    (Target::Category, &[Backend::Database, Backend::Cache], &[Target::Task]),
    (Target::Favourite, &[Backend::Database, Backend::Cache], &[]),
    (Target::Font, &[Backend::Database, Backend::Storage, Backend::Cache], &[]),
    (
        Target::Task,
        &[
            Backend::Database,
            Backend::Cache,
            Backend::Queue,
            Backend::Storage,
        ],
        // Saves and runs ask the material library whose materials a document may name; the
        // marketplace and enterprises ask the auth service who is a provider or a tenant's user.
        &[Target::Material, Target::Auth],
    ),
    (Target::Ai, &[Backend::Cache], &[]),
    (
        Target::Ring,
        &[Backend::Database, Backend::Storage, Backend::Cache],
        // Orders are made from finished tasks, read from the task service.
        &[Target::Task],
    ),
    (
        Target::Worker,
        &[Backend::Queue, Backend::Storage],
        &[Target::Task, Target::Material],
    ),
];

impl Target {
    /// Every target, in the order `--list-targets` shows them.
    pub const ALL: [Target; 11] = [
        Target::All,
        Target::Gateway,
        Target::Auth,
        Target::Material,
        Target::Category,
        Target::Favourite,
        Target::Font,
        Target::Task,
        Target::Ai,
        Target::Ring,
        Target::Worker,
    ];

    /// Parses a target name.
    pub fn parse(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Self::ALL.iter().map(|t| t.name()).collect();
                format!(
                    "unknown target `{s}` (expected one of: {})",
                    names.join(", ")
                )
            })
    }

    /// The target's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Gateway => "gateway",
            Self::Auth => "auth",
            Self::Material => "material",
            Self::Category => "category",
            Self::Favourite => "favourite",
            Self::Font => "font",
            Self::Task => "task",
            Self::Ai => "ai",
            Self::Ring => "ring",
            Self::Worker => "worker",
        }
    }

    /// The backends the target opens.
    pub fn backends(self) -> &'static [Backend] {
        DEPENDENCIES
            .iter()
            .find(|(t, _, _)| *t == self)
            .map_or(&[], |(_, b, _)| b)
    }

    /// The targets it calls over gRPC.
    pub fn calls(self) -> &'static [Target] {
        DEPENDENCIES
            .iter()
            .find(|(t, _, _)| *t == self)
            .map_or(&[], |(_, _, c)| c)
    }

    /// Whether the target needs `backend`.
    pub fn needs(self, backend: Backend) -> bool {
        self.backends().contains(&backend)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_has_a_row_and_parses_back() {
        for t in Target::ALL {
            assert!(
                DEPENDENCIES.iter().any(|(d, _, _)| *d == t),
                "{t} has no dependency row"
            );
            assert_eq!(Target::parse(t.name()), Ok(t));
        }
        assert!(Target::parse("rendr").is_err_and(|e| e.contains("unknown target `rendr`")));
    }
}
