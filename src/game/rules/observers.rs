//! Observers: nobody observes without consent (a request, confirmed with a token from
//! the address itself), the moderator allows or forbids them, and an observer leaves
//! with its secret.

use chrono::{DateTime, Utc};

use crate::lang::Lang;

use crate::game::GameError;
use crate::game::event::{Event, Revealed};
use crate::game::model::{Game, Observer, ObserverRequest};
use crate::game::secret::{hash_secret, new_secret, secret_matches};

use super::same_address;
use crate::game::Address;

/// Requests to observe a game waiting for confirmation, at most.
pub const MAX_OBSERVER_REQUESTS: usize = 20;

/// How long the token of a request to observe is good for.
pub const OBSERVER_TOKEN_LIFE: chrono::TimeDelta = chrono::TimeDelta::days(3);

impl Game {
    /// Allows or forbids observers; forbidding ends the current observers and the
    /// requests waiting for confirmation.
    pub(in crate::game) fn allow_observers(&mut self, allowed: bool) -> Event {
        self.settings.observers = allowed;
        if allowed {
            Event::ObserversAllowed
        } else {
            let ended = self.observers.len();
            self.observers.clear();
            self.observer_requests.clear();
            Event::ObserversForbidden { ended }
        }
    }

    /// Why `from` may not ask to observe (or confirm it): the moderator forbids
    /// observers, or it observes already.
    pub fn observing_refused(&self, from: &str) -> Result<(), GameError> {
        if !self.settings.observers {
            Err(GameError::ObserversForbidden)
        } else if self
            .observers
            .iter()
            .any(|o| same_address(&o.address, from))
        {
            Err(GameError::AlreadyObserving)
        } else {
            Ok(())
        }
    }

    /// Whether a request to observe from `from` would be taken before its token is made
    /// (what the mail desk asks before it spends the mail's one hash on it).
    pub fn may_ask_to_observe(&self, from: &str, now: DateTime<Utc>) -> Result<(), GameError> {
        self.observing_refused(from)?;
        let waiting = self
            .observer_requests
            .iter()
            .filter(|r| r.expires > now && !same_address(&r.address, from))
            .count();
        if waiting >= MAX_OBSERVER_REQUESTS {
            return Err(GameError::TooManyObserverRequests);
        }
        Ok(())
    }

    /// Nobody observes without consent: the request waits for its address to confirm
    /// it, with the token the answer carries there.
    pub(in crate::game) fn ask_observe(
        &mut self,
        from: &str,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Event, GameError> {
        self.may_ask_to_observe(from, now)?;
        self.observer_requests
            .retain(|r| r.expires > now && !same_address(&r.address, from));
        let token = new_secret()?;
        let expires = now + OBSERVER_TOKEN_LIFE;
        self.observer_requests.push(ObserverRequest {
            address: Address::new(from),
            token: hash_secret(&token)?,
            lang,
            asked: now,
            expires,
        });
        Ok(Event::ObserverAsked {
            address: Address::new(from),
            token: Revealed(token),
            expires,
        })
    }

    /// Whether a confirmation from `from` would be looked at before its token is checked
    /// (what the mail desk asks before it spends the mail's one hash on it).
    pub fn may_confirm_observing(
        &self,
        from: &str,
        cap: usize,
        now: DateTime<Utc>,
    ) -> Result<usize, GameError> {
        self.observing_refused(from)?;
        let request = self
            .observer_requests
            .iter()
            .position(|r| r.expires > now && same_address(&r.address, from))
            .ok_or_else(|| GameError::NoObserverRequest {
                game: self.id.clone(),
            })?;
        // Each observer gets every result with its picture: their number is capped. The
        // request is kept until it expires, for the moderator to see (`game show`) and
        // for a confirmation once an observer has left.
        if self.observers.len() >= cap {
            return Err(GameError::ObserversFull {
                game: self.id.clone(),
                cap,
            });
        }
        Ok(request)
    }

    pub(in crate::game) fn confirm_observe(
        &mut self,
        from: &str,
        token: &str,
        cap: usize,
        now: DateTime<Utc>,
    ) -> Result<Event, GameError> {
        let request = self.may_confirm_observing(from, cap, now)?;
        let hash = self.observer_requests.get(request).map(|r| r.token.clone());
        if !hash.is_some_and(|h| secret_matches(token, &h)) {
            return Err(GameError::BadObserverToken);
        }
        let asked = self.observer_requests.remove(request);
        let secret = new_secret()?;
        self.observers.push(Observer {
            address: asked.address,
            secret: hash_secret(&secret)?,
            lang: asked.lang,
            since: now,
        });
        Ok(Event::ObserverJoined {
            address: Address::new(from),
            secret: Revealed(secret),
        })
    }

    /// Whether `from` observes the game (what the mail desk asks before it spends the
    /// mail's one hash on a secret).
    pub fn observer_at(&self, from: &str) -> Result<usize, GameError> {
        self.observers
            .iter()
            .position(|o| same_address(&o.address, from))
            .ok_or(GameError::BadObserverSecret)
    }

    pub(in crate::game) fn unobserve(
        &mut self,
        from: &str,
        secret: &str,
    ) -> Result<Event, GameError> {
        let at = self.observer_at(from)?;
        let hash = self.observers.get(at).map(|o| o.secret.clone());
        if !hash.is_some_and(|h| secret_matches(secret, &h)) {
            return Err(GameError::BadObserverSecret);
        }
        self.observers.remove(at);
        Ok(Event::ObserverLeft {
            address: Address::new(from),
        })
    }
}
