//! A stable sort for a handful of items, without `core`'s sorts.

/// Sorts `v` stably, `before(a, b)` saying that `a` goes first: an insertion sort, for the few
/// items the search sorts (the folders of one `lib/`, the copies of one library already
/// loaded). `sort` would put about 10 KiB of merge and quick sort into every stub, among the
/// code of the first call, whose pages that call faults in.
pub(crate) fn sort_small<T>(v: &mut [T], before: impl Fn(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while let (Some(prev), Some(cur)) = (j.checked_sub(1), v.get(j)) {
            if !v.get(prev).is_some_and(|p| before(cur, p)) {
                break;
            }
            v.swap(prev, j);
            j = prev;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_sort_is_stable() {
        let mut v = [(1, 'a'), (3, 'b'), (1, 'c'), (2, 'd'), (3, 'e')];
        sort_small(&mut v, |a, b| a.0 > b.0);
        assert_eq!(v, [(3, 'b'), (3, 'e'), (2, 'd'), (1, 'a'), (1, 'c')]);
        let mut w: [u8; 0] = [];
        sort_small(&mut w, |a, b| a < b);
    }
}
