//! The page's files, built into the binary: nothing is fetched from elsewhere at run time.

/// (path, content type, body)
const FILES: &[(&str, &str, &str)] = &[
    ("/", HTML, include_str!("page/index.html")),
    ("/index.html", HTML, include_str!("page/index.html")),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("page/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("page/style.css"),
    ),
];

const HTML: &str = "text/html; charset=utf-8";

/// The content type and body served at `path`, if it is one of the page's files.
pub fn find(path: &str) -> Option<(&'static str, &'static str)> {
    FILES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|&(_, t, body)| (t, body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::strength::{MAX_ELO, MIN_ELO};

    #[test]
    fn only_the_pages_files_are_found() {
        assert!(find("/").is_some_and(|(t, b)| t.starts_with("text/html") && b.contains("app.js")));
        assert!(find("/app.js").is_some());
        assert!(find("/style.css").is_some());
        for p in [
            "/../Cargo.toml",
            "/app.js/",
            "/x",
            "",
            "/APP.JS",
            "/src/serve/page.rs",
        ] {
            assert!(find(p).is_none(), "{p}");
        }
    }

    #[test]
    fn every_strength_the_page_offers_is_in_the_calibrated_range() {
        // The range moves with each recalibration of UCI_Elo; the server refuses the rest.
        let (_, html) = find("/").unwrap();
        let start = html.find(r#"<select id="elo""#).unwrap();
        let select = &html[start..start + html[start..].find("</select>").unwrap()];
        let elos: Vec<u64> = select
            .split(r#"<option value=""#)
            .skip(1)
            .filter_map(|o| o[..o.find('"').unwrap()].parse().ok())
            .collect();
        assert!(elos.len() >= 3, "{select}");
        for elo in elos {
            assert!((MIN_ELO..=MAX_ELO).contains(&elo), "Elo {elo}");
        }
    }
}
