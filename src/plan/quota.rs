//! Quota (in progress).
