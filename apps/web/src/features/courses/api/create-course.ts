import type { CourseBody, CreateCourseInput } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { coursesBaseKey } from './get-courses';

/** `POST /api/courses` */
export function createCourse(input: CreateCourseInput): Promise<CourseBody> {
  return api.post<CourseBody>('/courses', input);
}

export function useCreateCourse(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCourse,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: coursesBaseKey(organizationId) }),
  });
}
