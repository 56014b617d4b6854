//! `GET /site/...`: the static files of a class's results site (`arena serve --site
//! OUT/site`), as they would open from disk.
//!
//! Only what lies inside the folder is served: the path is taken apart into names, each
//! a plain name (no `..`, no `.`, nothing starting with a dot, no backslash), and every
//! step is looked at without following links (`symlink_metadata`): a symbolic link
//! anywhere on the way, or anything but a regular file at the end, is "not found", so a
//! link a student's bot managed to leave in the output cannot point the server at
//! another file of the machine. Pages get a content security policy that lets their own
//! inline style and script run and nothing load from anywhere.

use std::path::{Path, PathBuf};

use axum::extract::{Path as UrlPath, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;

use super::{error, Shared};

/// The largest file served, bytes.
const MAX_FILE: u64 = 64 << 20;

/// The routes of this module.
pub(super) fn routes() -> Router<Shared> {
    Router::new()
        // Without the slash the pages' relative links would resolve outside /site/.
        .route("/site", get(|| async { Redirect::permanent("/site/") }))
        .route("/site/", get(site_index))
        .route("/site/{*path}", get(site_file))
}

async fn site_index(state: State<Shared>) -> Response {
    site_file(state, UrlPath("index.html".to_string())).await
}

/// The file `rel` of the site folder `root`, or why not.
pub fn resolve(root: &Path, rel: &str) -> Result<PathBuf, &'static str> {
    let mut path = root.to_path_buf();
    let meta = std::fs::symlink_metadata(root).map_err(|_| "no site folder")?;
    if !meta.is_dir() {
        return Err("no site folder");
    }
    let names: Vec<&str> = rel.split('/').collect();
    for (i, name) in names.iter().enumerate() {
        let last = i + 1 == names.len();
        if name.is_empty() && last && i > 0 {
            // A folder's trailing slash: its index.
            path.push("index.html");
            break;
        }
        if name.is_empty() || name.starts_with('.') || name.contains(['\\', '\0']) {
            return Err("not found");
        }
        path.push(name);
        let meta = std::fs::symlink_metadata(&path).map_err(|_| "not found")?;
        if meta.file_type().is_symlink() {
            return Err("not found");
        }
        if last && meta.is_dir() {
            path.push("index.html");
        } else if !last && !meta.is_dir() {
            return Err("not found");
        }
    }
    let meta = std::fs::symlink_metadata(&path).map_err(|_| "not found")?;
    if !meta.is_file() || meta.len() > MAX_FILE {
        return Err("not found");
    }
    Ok(path)
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("csv") => "text/csv; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    }
}

async fn site_file(State(state): State<Shared>, UrlPath(rel): UrlPath<String>) -> Response {
    let Some(root) = &state.config.site else {
        return error(
            StatusCode::NOT_FOUND,
            "no results site here: start the server with --site OUT/site",
        );
    };
    let path = match resolve(root, &rel) {
        Ok(p) => p,
        Err(why) => return error(StatusCode::NOT_FOUND, why),
    };
    match tokio::fs::read(&path).await {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, content_type(&path)),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                (
                    header::CONTENT_SECURITY_POLICY,
                    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'",
                ),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        Err(_) => error(StatusCode::NOT_FOUND, "not found"),
    }
}

#[cfg(test)]
mod tests {
    use super::resolve;

    /// The hostile paths a request can carry, against a site folder with a link in it.
    #[test]
    fn only_plain_files_inside_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("site");
        std::fs::create_dir_all(site.join("games")).unwrap();
        std::fs::write(site.join("index.html"), "i").unwrap();
        std::fs::write(site.join("games/g.html"), "g").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "s").unwrap();
        std::fs::write(site.join(".hidden"), "h").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), site.join("link.html")).unwrap();
        std::os::unix::fs::symlink(dir.path(), site.join("up")).unwrap();
        assert_eq!(
            resolve(&site, "index.html").unwrap(),
            site.join("index.html")
        );
        assert_eq!(
            resolve(&site, "games/g.html").unwrap(),
            site.join("games/g.html")
        );
        assert!(
            resolve(&site, "games/").is_err(),
            "a folder without an index"
        );
        for bad in [
            "../secret.txt",
            "games/../../secret.txt",
            "./index.html",
            "/etc/passwd",
            "//etc/passwd",
            "link.html",
            "up/secret.txt",
            ".hidden",
            "games\\..\\..\\secret.txt",
            "index.html\0",
            "index.html/x",
            "",
        ] {
            assert!(resolve(&site, bad).is_err(), "{bad:?} must not be served");
        }
        // The site folder itself a link: refused too.
        std::os::unix::fs::symlink(&site, dir.path().join("site-link")).unwrap();
        assert!(resolve(&dir.path().join("site-link"), "index.html").is_err());
    }
}
