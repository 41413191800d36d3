import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminPeopleEndpoints, type PeopleSearchField, type PersonDetail } from '@portal/contracts';
import { call } from '../../../lib/api';

export const PEOPLE_PAGE_SIZE = 20;

/** One page of the people search; nothing is asked until there is something to look for. */
export const usePeopleSearch = (q: string, by: PeopleSearchField | undefined, cursor: string | undefined) =>
  useQuery({
    queryKey: ['admin', 'people', 'search', q, by ?? null, cursor ?? null],
    queryFn: () => call(adminPeopleEndpoints.search, { query: { q, by, cursor, limit: PEOPLE_PAGE_SIZE } }, { handle: [400] }),
    enabled: q.trim().length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });

export const usePerson = (userId: string) =>
  useQuery({ queryKey: ['admin', 'people', 'person', userId], queryFn: () => call(adminPeopleEndpoints.person, { params: { userId } }, { handle: [404] }), retry: false });

export type PersonAction = 'lock' | 'unlock' | 'endSessions' | 'resetSecondFactors' | 'resendActivation' | 'startDeletion';

/** An action on a person with its reason; the answer is the person's page as it is now. */
export function usePersonAction(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, reason }: { action: PersonAction; reason: string }) => call(adminPeopleEndpoints[action], { params: { userId }, body: { reason } }, { handle: [400, 409] }),
    onSuccess: (person: PersonDetail) => {
      queryClient.setQueryData(['admin', 'people', 'person', userId], person);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'people', 'search'] });
    },
  });
}
