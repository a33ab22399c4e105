//! A game's record of what happened, shared between copies of a state: the generic player
//! copies states at every iteration, and a copy costs the same however long the game ran.

use std::sync::Arc;

/// A list that only grows at its end; copies share the items they have in common.
pub struct History<T> {
    last: Option<Arc<Entry<T>>>,
    len: usize,
}

struct Entry<T> {
    item: T,
    before: Option<Arc<Entry<T>>>,
}

impl<T> History<T> {
    /// An empty history.
    pub fn new() -> History<T> {
        History { last: None, len: 0 }
    }

    /// Adds `item` at the end.
    pub fn push(&mut self, item: T) {
        let before = self.last.take();
        self.last = Some(Arc::new(Entry { item, before }));
        self.len += 1;
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The newest item.
    pub fn last(&self) -> Option<&T> {
        self.last.as_deref().map(|e| &e.item)
    }

    /// The items, newest first.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        std::iter::successors(self.last.as_deref(), |e| e.before.as_deref()).map(|e| &e.item)
    }

    /// Forgets every item.
    pub fn clear(&mut self) {
        *self = History::new();
    }
}

impl<T> Default for History<T> {
    fn default() -> History<T> {
        History::new()
    }
}

impl<T> Clone for History<T> {
    fn clone(&self) -> History<T> {
        History {
            last: self.last.clone(),
            len: self.len,
        }
    }
}

impl<T> Drop for History<T> {
    /// One entry at a time (a long list dropped by recursion could overflow the stack),
    /// stopping where a copy still holds the rest.
    fn drop(&mut self) {
        let mut next = self.last.take();
        while let Some(e) = next {
            next = Arc::into_inner(e).and_then(|mut entry| entry.before.take());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::History;

    /// Copies share what they had and grow apart; a long history drops without recursion.
    #[test]
    fn copies_grow_apart_and_long_histories_drop() {
        let mut a = History::new();
        a.push(1);
        a.push(2);
        let mut b = a.clone();
        b.push(3);
        a.push(4);
        assert_eq!(a.iter().copied().collect::<Vec<_>>(), [4, 2, 1]);
        assert_eq!(b.iter().copied().collect::<Vec<_>>(), [3, 2, 1]);
        assert_eq!((a.len(), b.last()), (3, Some(&3)));
        drop(a);
        assert_eq!(b.iter().count(), 3);
        b.clear();
        assert!(b.is_empty() && b.last().is_none());
        let mut long = History::new();
        (0..1_000_000).for_each(|i| long.push(i));
        assert_eq!(long.len(), 1_000_000);
    }
}
