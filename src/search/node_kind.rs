//! The kinds of node the search tells apart, as types: each kind is its own compiled copy of the
//! node function, and a child's kind follows from its parent's at compile time.

/// What a node is expected to be.
pub(crate) trait NodeKind {
    /// On the principal variation: searched with an open window (every other kind has a zero
    /// window).
    const PV: bool;
    /// A zero-window node expected to fail high.
    const CUT: bool;
    /// The root: its moves come from the root's list and are searched unreduced.
    const ROOT: bool;
    /// The kind of the first move's child.
    type FirstChild: NodeKind;
    /// The kind of a later move's child searched at full depth with a zero window, and of the
    /// null move's child: a fail-high node's children are expected to fail low and the other
    /// way round.
    type Child: NodeKind;
    /// This node searched again with a zero window (the singular-extension test).
    type ZeroWindow: NodeKind;
}

/// The root, a node of the principal variation.
pub(crate) struct Root;
/// A node of the principal variation below the root.
pub(crate) struct Pv;
/// A zero-window node expected to fail high.
pub(crate) struct Cut;
/// A zero-window node expected to fail low.
pub(crate) struct All;

impl NodeKind for Root {
    const PV: bool = true;
    const CUT: bool = false;
    const ROOT: bool = true;
    type FirstChild = Pv;
    type Child = Cut;
    type ZeroWindow = All;
}

impl NodeKind for Pv {
    const PV: bool = true;
    const CUT: bool = false;
    const ROOT: bool = false;
    type FirstChild = Pv;
    type Child = Cut;
    type ZeroWindow = All;
}

impl NodeKind for Cut {
    const PV: bool = false;
    const CUT: bool = true;
    const ROOT: bool = false;
    type FirstChild = All;
    type Child = All;
    type ZeroWindow = Cut;
}

impl NodeKind for All {
    const PV: bool = false;
    const CUT: bool = false;
    const ROOT: bool = false;
    type FirstChild = Cut;
    type Child = Cut;
    type ZeroWindow = All;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (PV, CUT, ROOT) of a kind.
    fn flags<K: NodeKind>() -> (bool, bool, bool) {
        (K::PV, K::CUT, K::ROOT)
    }

    #[test]
    fn children_alternate_between_cut_and_all_below_the_principal_variation() {
        let (pv, cut, all) = (
            (true, false, false),
            (false, true, false),
            (false, false, false),
        );
        assert_eq!(flags::<Root>(), (true, false, true));
        assert_eq!(flags::<<Root as NodeKind>::FirstChild>(), pv);
        assert_eq!(flags::<<Root as NodeKind>::Child>(), cut);
        assert_eq!(flags::<Pv>(), pv);
        assert_eq!(flags::<<Pv as NodeKind>::FirstChild>(), pv);
        assert_eq!(flags::<<Pv as NodeKind>::Child>(), cut);
        assert_eq!(flags::<<Pv as NodeKind>::ZeroWindow>(), all);
        assert_eq!(flags::<<Cut as NodeKind>::FirstChild>(), all);
        assert_eq!(flags::<<Cut as NodeKind>::Child>(), all);
        assert_eq!(flags::<<Cut as NodeKind>::ZeroWindow>(), cut);
        assert_eq!(flags::<<All as NodeKind>::FirstChild>(), cut);
        assert_eq!(flags::<<All as NodeKind>::Child>(), cut);
        assert_eq!(flags::<<All as NodeKind>::ZeroWindow>(), all);
    }
}
